export { migrateMongo, openMongoStore, type MongoStoreOptions } from './mongodb.adapter.js';
export { DEFAULT_MONGODB_DB, mongoDatabaseName } from './database-name.js';

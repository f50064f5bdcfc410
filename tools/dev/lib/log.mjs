/** Launcher messages go to stderr with a fixed prefix, so they stand out from the services' JSON logs. */
export const say = (message) => process.stderr.write(`[launcher] ${message}\n`);

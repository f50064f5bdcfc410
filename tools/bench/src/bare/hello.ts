// Ceiling (a): the bare Fastify hello world, one process. It answers any path too, so it can take
// the very requests a scenario sends (the ban API's random players) as that scenario's ceiling.
import Fastify from 'fastify';

const app = Fastify();
const hello = async () => ({ hello: 'world' });
app.get('/', hello);
app.post('/', hello);
app.get('/*', hello);
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });

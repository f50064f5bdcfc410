// The collector the tracing runs export to (issue 54): an OTLP/HTTP endpoint on loopback that
// reads each export and answers 200, nothing more, so the gateway pays for making and sending its
// spans and not for a collector's back-pressure. In its own process, so its CPU is not the load
// generator's. `GET /count` answers how many exports and bytes it took, to show tracing was on.
import { createServer } from 'node:http';

let exports = 0;
let bytes = 0;
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exports, bytes }));
    return;
  }
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}).listen(Number(process.env['PORT']), '127.0.0.1');

import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorResponse } from '@rm/contracts';

/**
 * The HTTP server with a bound on how long a request may take to arrive. Node checks that bound
 * every connectionsCheckingInterval, so the interval is kept well below the timeout.
 */
export function createHttpServer(requestTimeoutMs: number, handler: RequestListener): Server {
  return createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(requestTimeoutMs / 4))),
    },
    handler,
  );
}

/**
 * Requests Node's parser refuses (oversized headers or URL, bad framing) are answered 400 in the
 * section 7 shape rather than Node's bare 431/400, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body: ErrorResponse = { success: false, message: tooLarge ? 'Request headers or URL too large' : 'Malformed HTTP request' };
  const json = JSON.stringify(body);
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`);
}

// An HTTP relay in front of s3rver that answers every request with S3's 503 (ServiceUnavailable)
// while `down` is set: the document store "away" for the replicas without touching its data.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Front {
  port: number;
  down: boolean;
  close(): Promise<void>;
}

const UNAVAILABLE =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message></Error>';

export async function startS3Front(targetPort: number): Promise<S3Front> {
  const front = { port: 0, down: false, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    if (front.down) {
      req.resume();
      res.writeHead(503, { 'Content-Type': 'application/xml', 'Retry-After': '1' }).end(UNAVAILABLE);
      return;
    }
    const upstream = request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.port = (server.address() as AddressInfo).port;
  front.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return front;
}

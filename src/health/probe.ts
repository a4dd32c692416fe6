// `node dist/src/health/probe.js`: the container health check. Exits 0 when this instance answers
// /health/ready with 200 (the database answers), else 1 with the reason on stderr. Reads PORT and the
// TLS files from the same configuration as the service, so it asks the right port and scheme.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { loadConfig } from '../config/app.config.js';

function fail(reason: string): never {
  console.error(`not ready: ${reason}`);
  process.exit(1);
}

try {
  const config = loadConfig();
  const send = config.tls ? httpsRequest : httpRequest;
  // Loopback to this very process: its certificate names the public host, not 127.0.0.1.
  const req = send({ host: '127.0.0.1', port: config.port, path: '/health/ready', timeout: 5000, rejectUnauthorized: false }, (res) => {
    res.resume();
    if (res.statusCode === 200) process.exit(0);
    fail(`/health/ready answered ${res.statusCode}`);
  });
  req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
  req.on('error', (error) => fail(error.message));
  req.end();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

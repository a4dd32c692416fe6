// nginx as the cluster's TLS-terminating load balancer, from the template operators use
// (docs/cluster/nginx.conf), in a folder of its own and in the foreground (no root, no system config).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATE = fileURLToPath(new URL('../../docs/cluster/nginx.conf', import.meta.url));

export interface Proxy {
  origin: string;
  stop(): Promise<void>;
  errors(): string;
}

/** The nginx binary on PATH or in /usr/sbin, or undefined. */
export function findNginx(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

export function renderNginxConfig(values: { runDir: string; listen: string; cert: string; key: string; replicas: string[] }): string {
  const servers = values.replicas.map((address) => `    server ${address} max_fails=1 fail_timeout=5s;`).join('\n');
  const fill: Record<string, string> = {
    RUN_DIR: values.runDir,
    LISTEN: values.listen,
    CERT: values.cert,
    KEY: values.key,
    SERVERS: servers,
  };
  return readFileSync(TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in fill)) throw new Error(`docs/cluster/nginx.conf: unknown placeholder ${name}`);
    return fill[name];
  });
}

export async function startNginx(
  binary: string,
  runDir: string,
  port: number,
  cert: string,
  key: string,
  replicas: string[],
): Promise<Proxy> {
  mkdirSync(runDir, { recursive: true });
  const config = join(runDir, 'nginx.conf');
  writeFileSync(config, renderNginxConfig({ runDir, listen: `127.0.0.1:${port}`, cert, key, replicas }));
  execFileSync(binary, ['-t', '-p', runDir, '-c', config, '-q'], { stdio: 'pipe' });
  const child: ChildProcess = spawn(binary, ['-p', runDir, '-c', config, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `https://127.0.0.1:${port}`;
  await waitForPort(port, child);
  return {
    origin,
    errors: () => readFileSync(join(runDir, 'error.log'), 'utf8'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('nginx did not listen within 10 s');
}

// One-shot work in a child process (a pull, a download): the parent forks the compiled entry with
// options as JSON and gets back the task's result, the process's peak RSS and its CPU time, so each
// figure belongs to that process alone.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface TaskOutcome<R> {
  result: R;
  peakRssMb: number;
  cpuMs: number;
}

type FromTask<R> = { type: 'done'; result: R; peakRssKb: number; cpuMicros: number } | { type: 'failed'; error: string };

export function runChildTask<R>(entry: URL, options: object, timeoutMs = 600_000): Promise<TaskOutcome<R>> {
  const child = fork(fileURLToPath(entry), [JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry.pathname}: no result within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('message', (message: FromTask<R>) => {
      clearTimeout(timer);
      if (message.type === 'failed') reject(new Error(`${entry.pathname}: ${message.error}`));
      else
        resolve({ result: message.result, peakRssMb: Math.round(message.peakRssKb / 1024), cpuMs: Math.round(message.cpuMicros / 1000) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry.pathname} exited (${code}) without a result`));
    });
  });
}

/** The child side: runs the task with the parent's options, reports, exits. */
export function runTaskForParent<T, R>(task: (options: T) => Promise<R>): void {
  if (!process.send) throw new Error(`${process.argv[1]} is a task for the bench to fork`);
  const send = (message: FromTask<R>) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
  process.once('disconnect', () => process.exit(1));
  task(JSON.parse(process.argv[2] ?? '{}') as T).then(
    async (result) => {
      const { user, system } = process.cpuUsage();
      await send({ type: 'done', result, peakRssKb: process.resourceUsage().maxRSS, cpuMicros: user + system });
      process.exit(0);
    },
    async (error: unknown) => {
      await send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      process.exit(1);
    },
  );
}

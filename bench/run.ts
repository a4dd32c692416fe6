// `npm run bench [-- <scenario>...] [--duration=10] [--warmup=3] [--rounds=1] [--quiet-wait=20] [--cpu-prof]`:
// runs the scenarios in order against a fresh database each (DATABASE_URL's server, else an embedded
// PostgreSQL), prints a table per scenario and writes the figures to bench/results/latest.json.
import 'reflect-metadata';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RunOptions, Scenario, ScenarioReport } from './scenario.js';
import { optInScenarios, scenarios } from './scenarios/index.js';
import { openBenchServer } from './support/database.js';
import { backgroundBusyPct } from './support/load.js';
import { summarizeProfile } from './support/profile-summary.js';
import { formatTable } from './support/table.js';

// dist/bench/run.js → the project root, where bench/results/ lives.
const ROOT = new URL('../../', import.meta.url);
const RESULTS = new URL('bench/results/', ROOT);

interface Args {
  selected: Scenario[];
  options: RunOptions;
}

function parseArgs(argv: string[]): Args {
  const options: RunOptions = { durationSec: 10, warmupSec: 3, rounds: 1, quietWaitSec: 20 };
  const names: string[] = [];
  for (const arg of argv) {
    const [flag, value] = arg.split('=', 2);
    if (flag === '--duration') options.durationSec = positive(flag, value);
    else if (flag === '--warmup') options.warmupSec = positive(flag, value, 0);
    else if (flag === '--rounds') options.rounds = Math.round(positive(flag, value));
    else if (flag === '--quiet-wait') options.quietWaitSec = positive(flag, value, 0);
    else if (flag === '--cpu-prof') options.profileDir = fileURLToPath(new URL('profiles/', RESULTS));
    else if (arg.startsWith('-')) throw new Error(`Unknown option ${arg}`);
    else names.push(arg);
  }
  const known = [...scenarios, ...optInScenarios];
  const unknown = names.filter((n) => !known.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new Error(`Unknown scenario ${unknown.join(', ')}; there are: ${known.map((s) => s.name).join(', ')}`);
  }
  return { selected: names.length > 0 ? known.filter((s) => names.includes(s.name)) : scenarios, options };
}

function positive(flag: string, value: string | undefined, min = 1): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > 600) throw new Error(`${flag} needs a number between ${min} and 600`);
  return n;
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function print(scenario: Scenario, report: ScenarioReport): void {
  console.log(`\n== ${scenario.name}: ${scenario.summary}\n`);
  console.log(formatTable(report.table.columns, report.table.rows));
  for (const note of report.notes) console.log(`  ${note}`);
  for (const target of report.targets) console.log(`  ${target.met ? 'MET    ' : 'MISSED '} ${target.name} (${target.detail})`);
}

/** latest.json keeps the figures of scenarios not run this time, each with the time it was measured. */
async function writeResults(machine: object, results: Record<string, object>): Promise<string> {
  await mkdir(RESULTS, { recursive: true });
  const file = new URL('latest.json', RESULTS);
  const previous = await readFile(file, 'utf8').then(
    (text) => (JSON.parse(text) as { scenarios: Record<string, object> }).scenarios,
    () => ({}),
  );
  await writeFile(file, `${JSON.stringify({ machine, scenarios: { ...previous, ...results } }, null, 2)}\n`);
  return fileURLToPath(file);
}

async function main(): Promise<void> {
  const { selected, options } = parseArgs(process.argv.slice(2));
  if (options.profileDir) await mkdir(options.profileDir, { recursive: true });
  const server = await openBenchServer();
  const machine = {
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    database: server.kind,
    backgroundBusyPct: await backgroundBusyPct(),
  };
  log(`${machine.cpus}, node ${machine.node}, database: ${server.kind}; CPU busy before the bench: ${machine.backgroundBusyPct} %`);
  if (machine.backgroundBusyPct > 10) log('WARNING: other processes keep the machine busy; the figures will be noisy (compare CPU ms/req)');
  const stop = () => void server.close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const results: Record<string, object> = {};
  try {
    for (const scenario of selected) {
      const started = Date.now();
      try {
        const report = await scenario.run({ server, options, log });
        print(scenario, report);
        results[scenario.name] = {
          measuredAt: new Date().toISOString(),
          seconds: Math.round((Date.now() - started) / 1000),
          ...options,
          targets: report.targets,
          ...report.figures,
        };
      } catch (error) {
        process.exitCode = 1;
        console.error(`\n== ${scenario.name} failed:`, error);
        results[scenario.name] = { measuredAt: new Date().toISOString(), error: String(error) };
      }
    }
  } finally {
    await server.close();
  }
  log(`figures written to ${await writeResults(machine, results)}`);
  if (options.profileDir) await printProfiles(options.profileDir);
}

async function printProfiles(dir: string): Promise<void> {
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.cpuprofile')).sort()) {
    const summary = await summarizeProfile(`${dir}/${name}`);
    console.log(`\n== CPU profile ${name}: ${summary.busyMs} ms busy (start-up included)\n`);
    console.log(
      formatTable(
        ['self time by package', 'ms', '%'],
        summary.byPackage.map((p) => [p.name, p.ms, p.pct]),
      ),
    );
    console.log();
    console.log(
      formatTable(
        ['hottest functions (self time)', 'ms', '%'],
        summary.topFunctions.map((f) => [f.name, f.ms, f.pct]),
      ),
    );
  }
  log(`CPU profiles in ${dir} (open them in Chrome DevTools or speedscope for call trees)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

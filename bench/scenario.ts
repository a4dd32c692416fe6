// What a benchmark scenario is: a name for the command line and a run that returns its figures.
import type { BenchServer } from './support/database.js';

export interface RunOptions {
  /** Seconds of each measured load run (default 10). */
  durationSec: number;
  /** Seconds of load before each measured run (default 3). */
  warmupSec: number;
  /** How often each measurement is repeated, interleaved; the median counts (default 1). */
  rounds: number;
  /** Before each measured load, wait up to this many seconds for other jobs to calm down (default 20, 0: never). */
  quietWaitSec: number;
  /** When set, servers under test write V8 CPU profiles (--cpu-prof) into this folder. */
  profileDir?: string;
}

export interface BenchContext {
  server: BenchServer;
  options: RunOptions;
  log: (line: string) => void;
}

export interface Target {
  name: string;
  met: boolean;
  detail: string;
}

export interface ScenarioReport {
  /** The table printed for people: a header row and the data rows. */
  table: { columns: string[]; rows: Array<Array<string | number>> };
  notes: string[];
  targets: Target[];
  /** Everything measured, for bench/results/latest.json. */
  figures: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  /** One line: what is measured and against what. */
  summary: string;
  run(ctx: BenchContext): Promise<ScenarioReport>;
}

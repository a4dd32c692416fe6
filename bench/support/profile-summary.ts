// Reads a V8 .cpuprofile (node --cpu-prof) and tells where the CPU time went: self time by package
// (node_modules/<name>, the app's own files, node internals, GC) and the hottest functions.
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** CPU time sampled, idle excluded (ms). */
  busyMs: number;
  byPackage: Array<{ name: string; ms: number; pct: number }>;
  topFunctions: Array<{ name: string; ms: number; pct: number }>;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/dist\/((?:src|bench|migrations)\/[^/]+)/.exec(url);
  if (own) return `app: ${own[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

export async function summarizeProfile(file: string, top = 15): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busyUs += us;
    const pkg = packageOf(url, functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${pkg === 'node internals' ? url : pkg}:${lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const rank = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / busyUs) / 10 }));
  return { busyMs: Math.round(busyUs / 1000), byPackage: rank(packages), topFunctions: rank(functions) };
}

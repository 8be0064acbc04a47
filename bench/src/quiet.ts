/** How busy a process is, from /proc: for starting a measurement only once what came before it has settled. */
import { readFileSync } from 'node:fs';
import { round } from './stats.ts';

/** A process's CPU time so far, user and system, in clock ticks (10 ms each). */
export const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/** Waits until a process has used under a tenth of a core for a whole second (at most 60 s); the seconds waited. */
export async function quiet(pid: number): Promise<number> {
  const started = Date.now();
  let before = cpuTicks(pid);
  while (Date.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuTicks(pid);
    // Ticks are hundredths of a second: under 10 in one second is under 10 % of a core.
    if (now - before < 10) break;
    before = now;
  }
  return round((Date.now() - started) / 1000);
}

/**
 * CPU time by group of processes, from Linux's /proc: what each part of a bench's set-up (the
 * server instances, the proxy, the clients, PostgreSQL, Ceph) spent over a phase, so a run can
 * say where the cores went per answered request. Times are user + system, in ms; a process's
 * children that have exited and been waited for count through its cutime/cstime.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream build). */
const TICK_MS = 10;

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  uid: number;
  /** Its own user + system time, ms. */
  own: number;
  /** The user + system time of its exited children, ms. */
  reaped: number;
}

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(name), {
        pid: Number(name),
        ppid: Number(fields[1]),
        comm,
        uid: statSync(`/proc/${name}`).uid,
        own: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
        reaped: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
      });
    } catch {
      // It exited between the listing and the read.
    }
  }
  return procs;
}

/** Which processes a group holds; answered again at each snapshot (backends come and go). */
export type Members = (procs: Map<number, Proc>) => Promise<number[]> | number[];

/** A process and all its live descendants. */
export const tree =
  (pid: number): Members =>
  (procs) => {
    const found = [pid];
    for (let i = 0; i < found.length; i++) {
      for (const proc of procs.values()) if (proc.ppid === found[i]) found.push(proc.pid);
    }
    return found.filter((p) => procs.has(p));
  };

/** Every process of user `uid` (e.g. PostgreSQL's postmaster and backends). */
export const ofUser =
  (uid: number): Members =>
  (procs) =>
    [...procs.values()].filter((proc) => proc.uid === uid).map((proc) => proc.pid);

/** Every process whose command name is one of `names`. */
export const named =
  (...names: string[]): Members =>
  (procs) =>
    [...procs.values()].filter((proc) => names.includes(proc.comm)).map((proc) => proc.pid);

/** The uid of the first process named `comm` (e.g. PostgreSQL's `postgres`). */
export function uidOf(comm: string): number | undefined {
  for (const proc of readProcs().values()) if (proc.comm === comm) return proc.uid;
  return undefined;
}

export interface Group {
  name: string;
  members: Members;
  /**
   * Whether exited children's time (cutime/cstime) counts; default true. False for the bench's
   * own process, whose children are the instances and the proxy.
   */
  withReaped?: boolean;
  /** False for a group that is part of another (left out of the sum of all groups). */
  inTotal?: boolean;
}

export type Snapshot = Map<string, number> & {
  machineBusyMs: number;
  at: number;
  outOfTotal: Set<string>;
};

/** Busy (non-idle) CPU time of the whole machine, ms, all cores together. */
function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  // Idle and iowait (the 4th and 5th) are not busy.
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_MS;
}

/** Each group's CPU time so far. */
export async function snapshot(groups: Group[]): Promise<Snapshot> {
  const procs = readProcs();
  const times = new Map<string, number>() as Snapshot;
  times.outOfTotal = new Set(groups.filter((g) => g.inTotal === false).map((g) => g.name));
  for (const group of groups) {
    const pids = await group.members(procs);
    let ms = 0;
    for (const pid of pids) {
      const proc = procs.get(pid);
      if (!proc) continue;
      // A member that exits moves its time into its parent's reaped time: groups hold whole
      // trees (a postmaster and its backends), so the total does not jump when one ends.
      ms += proc.own + (group.withReaped === false ? 0 : proc.reaped);
    }
    times.set(group.name, ms);
  }
  times.machineBusyMs = machineBusyMs();
  times.at = performance.now();
  return times;
}

/** The rows a bench prints: per group, CPU seconds, share of a core, and ms per request. */
export function cpuRows(from: Snapshot, to: Snapshot, requests: number) {
  const seconds = (to.at - from.at) / 1000;
  const row = (name: string, ms: number) => ({
    group: name,
    'CPU s': Number((ms / 1000).toFixed(1)),
    cores: Number((ms / 1000 / seconds).toFixed(2)),
    'ms/request': Number((ms / Math.max(1, requests)).toFixed(2)),
  });
  let ours = 0;
  const rows = [...to.keys()].map((name) => {
    const ms = Math.max(0, to.get(name)! - (from.get(name) ?? 0));
    if (!to.outOfTotal.has(name)) ours += ms;
    return row(name, ms);
  });
  const machine = to.machineBusyMs - from.machineBusyMs;
  rows.push(row('(all of the above, once)', ours));
  rows.push(row('(the whole machine)', machine));
  return rows;
}

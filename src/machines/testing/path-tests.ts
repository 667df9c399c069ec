/**
 * Model-based path tests for every machine, a coverage supplement to the hand-written tests.
 * A small abstract model of the spec (no `invoke` or `after`, which `xstate/graph` cannot
 * walk) generates paths with `createTestModel`;
 * each path drives the real actor (fake actors injected with `.provide`, time on a
 * `SimulatedClock`) and checks it in every model state. While the paths run, the real actor is
 * watched through XState's inspection API, and a last test fails when a state or transition
 * of the real machine was never reached. Its numbers go into the test's `meta`, which the
 * vitest JSON report keeps and `scripts/summarize-tests.ts` prints.
 *
 * ```ts
 * describeMachinePaths(fileFieldMachine, {
 *   suites: [
 *     pathSuite({
 *       name: 'file field',
 *       model,
 *       system: ({ inspect, clock }) => {
 *         const actor = createActor(fileFieldMachine.provide({ actors }), { inspect, clock }).start();
 *         return { actor, states: { idle: () => ... }, events: { SELECT: () => actor.send(...) } };
 *       },
 *     }),
 *   ],
 * });
 * ```
 */
import { describe, expect, it } from 'vitest';
import {
  SimulatedClock,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type EventFromLogic,
  type InputFrom,
  type InspectionEvent,
  type Observer,
  type SnapshotFrom,
} from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { TestModelOptions, TestParam } from 'xstate/graph';

/** What a suite's system gets: both must be passed to the real actor's `createActor`. */
export interface PathTools {
  inspect: Observer<InspectionEvent>;
  clock: SimulatedClock;
}

/** The real actor of one path and how to check and drive it (`path.test` parameters). */
interface PathSystem<TModel extends AnyStateMachine> extends TestParam<
  SnapshotFrom<TModel>,
  EventFromLogic<TModel>
> {
  /** Stopped after the path. */
  actor: AnyActorRef;
}

export interface TypedPathSuite<TModel extends AnyStateMachine> {
  /** Names the group of paths in the test output, e.g. "paged mode". */
  name: string;
  /** The abstract model whose paths drive the real machine. */
  model: TModel;
  options?: Partial<
    TestModelOptions<SnapshotFrom<TModel>, EventFromLogic<TModel>, InputFrom<TModel>>
  >;
  /** Shortest paths (the default) reach every model state; simple paths take every route. */
  paths?: 'shortest' | 'simple';
  /** Starts a fresh real actor for one path. */
  system: (tools: PathTools) => PathSystem<TModel>;
}

/** A suite with its model's types erased, so that one machine can take suites of several models. */
export interface PathSuite {
  name: string;
  paths: readonly GeneratedPath[];
}

interface GeneratedPath {
  title: string;
  run: (tools: PathTools) => Promise<AnyActorRef>;
}

/** Keeps a suite's types while it is written; see `describeMachinePaths`. */
export function pathSuite<TModel extends AnyStateMachine>(
  suite: TypedPathSuite<TModel>,
): PathSuite {
  const model = createTestModel(suite.model, {
    // Only events the model takes: an ignored one would still be sent to the real actor.
    filterEvents: (snapshot, event) => (snapshot as AnyMachineSnapshot).can(event),
    ...suite.options,
  });
  const paths = suite.paths === 'simple' ? model.getSimplePaths() : model.getShortestPaths();
  return {
    name: suite.name,
    paths: paths.map((path) => ({
      title:
        path.steps
          .map((step) => (step.event as EventObject).type)
          .filter((type) => type !== 'xstate.init')
          .join(' → ') || '(initial)',
      run: async (tools) => {
        const { actor, states, events } = suite.system(tools);
        try {
          await path.test({ states, events });
        } finally {
          actor.stop();
        }
        return actor;
      },
    })),
  };
}

/** Per machine: how many paths ran and what of the real machine they reached. */
export interface MachineCoverageReport {
  machine: string;
  paths: number;
  states: { reached: number; total: number };
  transitions: { reached: number; total: number };
  /** States and transitions no path reached, allow-listed ones included. */
  unreached: string[];
}

declare module 'vitest' {
  interface TaskMeta {
    machineCoverage?: MachineCoverageReport;
  }
}

export interface MachinePathsOptions {
  suites: readonly PathSuite[];
  /**
   * States (`state authenticating.login`) and transitions (`transition idle: LOGOUT -> ...`)
   * that no model can reach, each with the reason. Use sparingly: an entry that is reached,
   * or that the machine does not have, fails the tests too.
   */
  allowUnreached?: Readonly<Record<string, string>>;
}

/**
 * Registers the path tests of every suite, then a test that fails unless the paths together
 * reached every state and every transition of `machine` (the real one).
 */
export function describeMachinePaths(machine: AnyStateMachine, options: MachinePathsOptions) {
  const coverage = createMachineCoverage(machine);
  const allowed = options.allowUnreached ?? {};
  const pathCount = options.suites.reduce((sum, suite) => sum + suite.paths.length, 0);

  describe(`${machine.id} machine paths`, () => {
    for (const suite of options.suites) {
      describe(suite.name, () => {
        it.each(suite.paths.map((path) => [path.title, path] as const))(
          '%s',
          async (_title, path) => {
            let observed = false;
            const inspect: Observer<InspectionEvent> = {
              next: (event) => {
                observed = coverage.observe(event) || observed;
              },
            };
            await path.run({ inspect, clock: new SimulatedClock() });
            if (!observed) {
              throw new Error('The system never reported to `inspect`: pass it to createActor.');
            }
          },
        );
      });
    }

    it(`reaches every state and transition of the ${machine.id} machine`, ({ task }) => {
      const report = coverage.report(pathCount);
      task.meta.machineCoverage = report;
      expect(report.unreached.filter((key) => !(key in allowed))).toEqual([]);
      // The allow-list only names what exists and stays unreached.
      expect(Object.keys(allowed).filter((key) => !report.unreached.includes(key))).toEqual([]);
    });
  });
}

/** Records what a machine's root actors reach, from their inspection events. */
export function createMachineCoverage(machine: AnyStateMachine) {
  const inventory = machineInventory(machine);
  const reached = new Set<string>();
  return {
    /** Takes one inspection event; true when it came from a root actor. */
    observe: (event: InspectionEvent): boolean => {
      // Only a root actor of this machine counts; child machines have tests of their own.
      if (event.actorRef.sessionId !== event.rootId) return false;
      if ((event.actorRef as { logic?: { id?: unknown } }).logic?.id !== machine.id) return false;
      for (const key of reachedBy(event)) reached.add(key);
      return true;
    },
    report: (paths: number): MachineCoverageReport => ({
      machine: machine.id,
      paths,
      states: { reached: countReached(inventory.states, reached), total: inventory.states.length },
      transitions: {
        reached: countReached(inventory.transitions, reached),
        total: inventory.transitions.length,
      },
      unreached: inventory.all.filter((key) => !reached.has(key)),
    }),
  };
}

const countReached = (keys: readonly string[], reached: ReadonlySet<string>) =>
  keys.filter((key) => reached.has(key)).length;

// ---------------------------------------------------------------- naming states and transitions

const pathOf = (node: AnyStateNode) => node.path.join('.') || '(machine)';

const stateKey = (node: AnyStateNode) => `state ${pathOf(node)}`;

const guardName = (guard: unknown): string | null => {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') {
    return guard.type;
  }
  return 'inline guard';
};

/** `after DEBOUNCE`, `done`, `done: fetchPage`, `error: fetchPage`, `always`, or the event type. */
function eventName(node: AnyStateNode, eventType: string): string {
  if (eventType === '') return 'always';
  if (eventType === `xstate.done.state.${node.id}`) return 'done';
  if (eventType.startsWith('xstate.after.')) {
    return `after ${eventType.slice('xstate.after.'.length, -(node.id.length + 1))}`;
  }
  for (const invoke of node.invoke) {
    const src = typeof invoke.src === 'string' ? invoke.src : invoke.id;
    if (eventType === `xstate.done.actor.${invoke.id}`) return `done: ${src}`;
    if (eventType === `xstate.error.actor.${invoke.id}`) return `error: ${src}`;
  }
  return eventType;
}

/** `idle: LOGOUT [hasRefreshToken] -> loggingOut`; targetless transitions go to `(no target)`. */
function transitionKeys(node: AnyStateNode): Map<AnyTransitionDefinition, string> {
  const keys = new Map<AnyTransitionDefinition, string>();
  const candidates: [string, readonly AnyTransitionDefinition[]][] = [
    ...node.transitions.entries(),
    ['', node.always ?? []],
  ];
  for (const [eventType, transitions] of candidates) {
    for (const transition of transitions) {
      const guard = guardName(transition.guard);
      const targets = transition.target?.length
        ? transition.target.map(pathOf).join(', ')
        : '(no target)';
      let key = `transition ${pathOf(node)}: ${eventName(node, eventType)}${guard ? ` [${guard}]` : ''} -> ${targets}`;
      const base = key;
      for (let copy = 2; [...keys.values()].includes(key); copy++) key = `${base} #${copy}`;
      keys.set(transition, key);
    }
  }
  return keys;
}

const nodesOf = (node: AnyStateNode): AnyStateNode[] => [
  node,
  ...Object.values(node.states).flatMap(nodesOf),
];

interface Inventory {
  states: string[];
  transitions: string[];
  all: string[];
}

function machineInventory(machine: AnyStateMachine): Inventory {
  const nodes = nodesOf(machine.root);
  const states = nodes.filter((node) => node !== machine.root).map(stateKey);
  const transitions = nodes.flatMap((node) => [...transitionKeys(node).values()]);
  return { states, transitions, all: [...states, ...transitions] };
}

// Keys of the running machine (a `.provide()` copy has its own transition objects, same keys).
const keysByMachine = new WeakMap<object, Map<AnyTransitionDefinition, string>>();

function keyOf(machine: AnyStateMachine, transition: AnyTransitionDefinition): string | undefined {
  let keys = keysByMachine.get(machine);
  if (!keys) {
    keys = new Map(nodesOf(machine.root).flatMap((node) => [...transitionKeys(node)]));
    keysByMachine.set(machine, keys);
  }
  return keys.get(transition);
}

/** The active state nodes of a state value, ancestors included. */
function activeNodes(node: AnyStateNode, value: unknown): AnyStateNode[] {
  if (typeof value === 'string') {
    const child = node.states[value];
    return child ? [child] : [];
  }
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
    const child = node.states[key];
    return child ? [child, ...activeNodes(child, inner)] : [];
  });
}

const ancestorsOf = (node: AnyStateNode | undefined): AnyStateNode[] =>
  node?.parent ? [node, ...ancestorsOf(node.parent)] : [];

/** The states and transitions an inspection event shows the real actor in or taking. */
function reachedBy(event: InspectionEvent): string[] {
  if (event.type !== '@xstate.snapshot' && event.type !== '@xstate.microstep') return [];
  const machine = (event.actorRef as { logic?: unknown }).logic as AnyStateMachine | undefined;
  if (!machine?.root) return [];
  const value = (event.snapshot as { value?: unknown }).value;
  const keys = activeNodes(machine.root, value).map(stateKey);
  if (event.type === '@xstate.microstep') {
    for (const transition of event._transitions) {
      const key = keyOf(machine, transition);
      if (key) keys.push(key);
      // A state left at once (an `always` or a final step) shows only as a transition's source.
      keys.push(...ancestorsOf(transition.source).map(stateKey));
    }
  }
  return keys;
}

/**
 * Machine documentation that cannot go stale: every XState machine exported by a
 * `src/machines/*.machine.ts` module becomes a Markdown page with a Mermaid `stateDiagram-v2`
 * and tables of its events, guards, actors, actions and delays, all read from the machine
 * definition itself. Pure (no file access): `scripts/machines.ts` writes and checks the pages,
 * `machine-docs.test.ts` fails when a committed page differs from what the machines generate.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { StateMachine } from 'xstate';

/** One machine to document: `name` is the page's file name without `.md`. */
export interface MachineEntry {
  name: string;
  /** The module, relative to the repository root (`src/machines/list.machine.ts`). */
  file: string;
  exportName: string;
  machine: AnyStateMachine;
}

/** Where pages live, relative to the repository root, and the command that regenerates them. */
export const MACHINE_DOCS_DIR = 'docs/machines';
export const MACHINE_DOCS_COMMAND = 'npm run machines';
const MACHINE_FILE = /\.machine\.[cm]?[jt]sx?$/;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const unique = (values: Iterable<string>) => [...new Set(values)].sort(compare);

/** True for XState machines (also ones built by another copy of xstate, e.g. under Vite SSR). */
function isStateMachine(value: unknown): value is AnyStateMachine {
  if (value instanceof StateMachine) return true;
  const candidate = value as { config?: unknown; transition?: unknown; root?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.config === 'object' &&
    candidate.config !== null &&
    typeof candidate.transition === 'function' &&
    typeof candidate.root === 'object'
  );
}

/**
 * The machines of some modules, keyed by module path (`./list.machine.ts` or
 * `src/machines/list.machine.ts`). A module with one machine gives the page `<base>`
 * (`list` for `list.machine.ts`); with several, `<base>-<exportName>`. A machine exported
 * twice (named and default) is documented once, under its named export.
 */
export function machinesOfModules(modules: Record<string, unknown>): MachineEntry[] {
  const entries: MachineEntry[] = [];
  for (const path of Object.keys(modules).sort(compare)) {
    const fileName = path.split('/').pop() ?? path;
    if (!MACHINE_FILE.test(fileName)) continue;
    const base = fileName.replace(MACHINE_FILE, '');
    const exports = (modules[path] ?? {}) as Record<string, unknown>;
    const seen = new Set<unknown>();
    const found: Array<{ exportName: string; machine: AnyStateMachine }> = [];
    const names = Object.keys(exports)
      .filter((key) => key !== 'default')
      .sort(compare)
      .concat('default' in exports ? ['default'] : []);
    for (const exportName of names) {
      const value = exports[exportName];
      if (!isStateMachine(value) || seen.has(value)) continue;
      seen.add(value);
      found.push({ exportName, machine: value });
    }
    for (const { exportName, machine } of found) {
      entries.push({
        name: found.length === 1 ? base : `${base}-${exportName}`,
        file: `src/machines/${fileName}`,
        exportName,
        machine,
      });
    }
  }
  return entries.sort((a, b) => compare(a.name, b.name));
}

// ---------------------------------------------------------------------------------------------
// Reading the machine definition

/** One transition of one state node, in words. */
interface Edge {
  source: AnyStateNode;
  targets: AnyStateNode[];
  /** What triggers it: an event type, `always`, `after 250ms`, `onDone fetchPage`, ... */
  trigger: string;
  /** The user event, or null for eventless/delayed/done/error transitions. */
  event: string | null;
  guard: string | null;
  actions: string[];
}

interface Usage {
  name: string;
  where: string;
}

type Named = { type?: unknown; name?: unknown; guards?: unknown; stateValue?: unknown };

/** The nodes under `node` (itself first), in definition order. */
function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child))];
}

/** `loading.fetching`; the root is `(machine)`. */
const statePath = (node: AnyStateNode) => (node.path.length ? node.path.join('.') : '(machine)');

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function' || (typeof guard === 'object' && guard !== null)) {
    const { type, guards, stateValue } = guard as Named;
    const inner = Array.isArray(guards) ? guards.map(guardName) : [];
    if (type === 'xstate.and') return inner.join(' && ');
    if (type === 'xstate.or') return inner.join(' || ');
    if (type === 'xstate.not') return `!${inner[0] ?? ''}`;
    if (stateValue !== undefined) return `in ${JSON.stringify(stateValue)}`;
    if (typeof type === 'string') return type;
  }
  return 'inline';
}

/** The name of an action; null for the raise/cancel pairs XState adds for delayed transitions. */
function actionName(action: unknown): string | null {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null) {
    const { type } = action as Named;
    return typeof type === 'string' ? type : 'inline';
  }
  if (typeof action === 'function') {
    const { type } = action as Named;
    const internal = action as { id?: unknown; sendId?: unknown };
    if (type === 'xstate.raise' && String(internal.id).startsWith('xstate.after.')) return null;
    if (type === 'xstate.cancel' && String(internal.sendId).startsWith('xstate.after.'))
      return null;
    if (typeof type === 'string' && type.startsWith('xstate.'))
      return `${type.slice('xstate.'.length)} (inline)`;
    return 'inline';
  }
  return 'inline';
}

const actionNames = (actions: readonly unknown[]) =>
  actions.map(actionName).filter((name): name is string => name !== null);

function actorName(machine: AnyStateMachine, src: unknown): string {
  if (typeof src === 'string') return src;
  const actors = (machine.implementations.actors ?? {}) as Record<string, unknown>;
  const key = Object.keys(actors).find((name) => actors[name] === src);
  if (key) return key;
  const id = (src as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : 'inline';
}

function delayLabel(machine: AnyStateMachine, delay: unknown): string {
  if (typeof delay === 'number') return `${delay}ms`;
  if (typeof delay === 'string') {
    const value = (machine.implementations.delays as Record<string, unknown>)[delay];
    return typeof value === 'number' ? `${value}ms` : delay;
  }
  return '(dynamic)';
}

const delayKey = (delay: unknown) =>
  typeof delay === 'number' ? `${delay}ms` : typeof delay === 'string' ? delay : '(dynamic)';

function trigger(machine: AnyStateMachine, node: AnyStateNode, eventType: string) {
  if (eventType.startsWith('xstate.after.')) {
    const delayed = node.after.find((t) => t.eventType === eventType);
    return { trigger: `after ${delayLabel(machine, delayed?.delay)}`, event: null };
  }
  for (const [prefix, label] of [
    ['xstate.done.actor.', 'onDone'],
    ['xstate.error.actor.', 'onError'],
    ['xstate.snapshot.', 'onSnapshot'],
  ] as const) {
    const invoke = node.invoke.find((inv) => eventType === `${prefix}${inv.id}`);
    if (invoke) return { trigger: `${label} ${actorName(machine, invoke.src)}`, event: null };
  }
  if (eventType === `xstate.done.state.${node.id}`) return { trigger: 'onDone', event: null };
  return { trigger: eventType, event: eventType };
}

function edgesOf(machine: AnyStateMachine, node: AnyStateNode): Edge[] {
  const edge = (t: AnyTransitionDefinition, label: { trigger: string; event: string | null }) => ({
    source: node,
    targets: [...(t.target ?? [])],
    ...label,
    guard: t.guard === undefined ? null : guardName(t.guard),
    actions: actionNames(t.actions),
  });
  const edges: Edge[] = [];
  for (const [eventType, transitions] of node.transitions) {
    for (const t of transitions) edges.push(edge(t, trigger(machine, node, eventType)));
  }
  for (const t of node.always ?? []) edges.push(edge(t, { trigger: 'always', event: null }));
  return edges;
}

// ---------------------------------------------------------------------------------------------
// Mermaid

const MERMAID_KEYWORDS = new Set([
  'state',
  'note',
  'end',
  'direction',
  'class',
  'classdef',
  'style',
  'click',
  'as',
  'stateDiagram',
]);

/**
 * Mermaid ids for the state nodes: the node id (`list.loading.debouncing`) with every character
 * outside `[A-Za-z0-9_]` replaced by `_` (`list_loading_debouncing`), prefixed with `s_` when it
 * would start with a digit or be a Mermaid keyword, and suffixed `_2`, `_3`, ... on a clash.
 */
function mermaidIds(machine: AnyStateMachine): Map<AnyStateNode, string> {
  const ids = new Map<AnyStateNode, string>();
  const taken = new Set<string>();
  for (const node of allNodes(machine.root)) {
    let id = node.id.replace(/[^A-Za-z0-9_]/g, '_') || 's';
    if (/^[0-9]/.test(id) || MERMAID_KEYWORDS.has(id.toLowerCase())) id = `s_${id}`;
    let candidate = id;
    for (let n = 2; taken.has(candidate); n++) candidate = `${id}_${n}`;
    taken.add(candidate);
    ids.set(node, candidate);
  }
  return ids;
}

/** Text that is safe in a quoted state name or after `:`. */
const label = (text: string) => text.replace(/[\r\n;]+/g, ' ').replace(/"/g, "'");

/** The machine as a Mermaid `stateDiagram-v2` (without the code fence). */
export function machineToMermaid(machine: AnyStateMachine): string {
  const ids = mermaidIds(machine);
  const id = (node: AnyStateNode) => ids.get(node) ?? 'unknown';
  const lines = ['stateDiagram-v2'];
  const emit = (depth: number, line: string) => lines.push(`${'  '.repeat(depth)}${line}`);

  // Structure first: a state belongs to the composite block it is first named in, so the
  // transitions, which cross blocks, come after every block.
  const declare = (node: AnyStateNode, depth: number) => {
    const children = Object.values(node.states);
    if (children.length === 0) {
      const name = node.type === 'history' ? `${node.key} (history)` : node.key;
      emit(depth, `state "${label(name)}" as ${id(node)}`);
      for (const invoke of node.invoke)
        emit(depth, `${id(node)} : invoke ${label(actorName(machine, invoke.src))}`);
      const entry = actionNames(node.entry);
      const exit = actionNames(node.exit);
      if (entry.length) emit(depth, `${id(node)} : entry / ${label(entry.join(', '))}`);
      if (exit.length) emit(depth, `${id(node)} : exit / ${label(exit.join(', '))}`);
      return;
    }
    if ((node.key || node.id) !== id(node))
      emit(depth, `${id(node)} : ${label(node.key || node.id)}`);
    emit(depth, `state ${id(node)} {`);
    if (node.type === 'parallel') {
      children.forEach((child, index) => {
        if (index > 0) emit(depth + 1, '--');
        declare(child, depth + 1);
      });
    } else {
      for (const target of node.initial?.target ?? []) {
        if (target.parent === node) emit(depth + 1, `[*] --> ${id(target)}`);
      }
      for (const child of children) declare(child, depth + 1);
      for (const child of children) {
        if (child.type === 'final') emit(depth + 1, `${id(child)} --> [*]`);
      }
    }
    emit(depth, '}');
  };
  emit(1, `[*] --> ${id(machine.root)}`);
  declare(machine.root, 1);

  // Transitions with the same source, target and guard share one arrow.
  const arrows = new Map<string, { from: string; to: string; triggers: string[]; guard: string }>();
  for (const node of allNodes(machine.root)) {
    for (const edge of edgesOf(machine, node)) {
      for (const target of edge.targets) {
        const guard = edge.guard === null ? '' : ` [${edge.guard}]`;
        const key = `${id(node)}\u0000${id(target)}\u0000${guard}`;
        const arrow = arrows.get(key) ?? { from: id(node), to: id(target), triggers: [], guard };
        if (!arrow.triggers.includes(edge.trigger)) arrow.triggers.push(edge.trigger);
        arrows.set(key, arrow);
      }
    }
  }
  for (const { from, to, triggers, guard } of arrows.values())
    emit(1, `${from} --> ${to} : ${label(triggers.join(', ') + guard)}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Markdown

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (text: string) => `\`${text}\``;
const codes = (values: string[]) => (values.length ? values.map(code).join(', ') : '—');

function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '_None._';
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

const byName = (usages: Usage[]) => {
  const map = new Map<string, string[]>();
  for (const { name, where } of usages) map.set(name, [...(map.get(name) ?? []), where]);
  return map;
};

const implementationNames = (record: object | undefined) => Object.keys(record ?? {});

/** The Markdown page of one machine. */
function machineToMarkdown(entry: MachineEntry): string {
  const { machine } = entry;
  const nodes = allNodes(machine.root);
  const edges = nodes.flatMap((node) => edgesOf(machine, node));
  const describe = (edge: Edge) => `${edge.trigger} in ${code(statePath(edge.source))}`;

  const eventRows = edges
    .filter((edge) => edge.event !== null)
    .map((edge) => [
      edge.event ?? '',
      statePath(edge.source),
      edge.targets.length ? codes(edge.targets.map(statePath)) : '— (stays)',
      edge.guard === null ? '—' : code(edge.guard),
      codes(edge.actions),
    ])
    // By event, then state; the transitions of one event and state keep their definition order.
    .sort((a, b) => compare(a[0] ?? '', b[0] ?? '') || compare(a[1] ?? '', b[1] ?? ''))
    .map(([event = '', state = '', ...rest]) => [code(event), code(state), ...rest]);

  const guardUses = byName(
    edges.flatMap((edge) =>
      edge.guard === null ? [] : [{ name: edge.guard, where: describe(edge) }],
    ),
  );
  const guardRows = unique([
    ...guardUses.keys(),
    ...implementationNames(machine.implementations.guards),
  ]).map((name) => [code(name), (guardUses.get(name) ?? ['— (unused)']).join('; ')]);

  const actorUses = byName(
    nodes.flatMap((node) =>
      node.invoke.map((invoke) => ({
        name: actorName(machine, invoke.src),
        where: code(statePath(node)),
      })),
    ),
  );
  const actorRows = unique([
    ...actorUses.keys(),
    ...implementationNames(machine.implementations.actors),
  ]).map((name) => [
    code(name),
    (actorUses.get(name) ?? ['— (not invoked; may be spawned)']).join(', '),
  ]);

  const actionUses = byName([
    ...nodes.flatMap((node) => [
      ...actionNames(node.entry).map((name) => ({
        name,
        where: `entry of ${code(statePath(node))}`,
      })),
      ...actionNames(node.exit).map((name) => ({
        name,
        where: `exit of ${code(statePath(node))}`,
      })),
    ]),
    ...edges.flatMap((edge) => edge.actions.map((name) => ({ name, where: describe(edge) }))),
  ]);
  const actionRows = unique([
    ...actionUses.keys(),
    ...implementationNames(machine.implementations.actions),
  ]).map((name) => [code(name), unique(actionUses.get(name) ?? ['— (unused)']).join('; ')]);

  const delayUses = byName(
    nodes.flatMap((node) =>
      node.after.map((t) => ({ name: delayKey(t.delay), where: code(statePath(node)) })),
    ),
  );
  const delays = (machine.implementations.delays ?? {}) as Record<string, unknown>;
  const delayRows = unique([...delayUses.keys(), ...Object.keys(delays)]).map((name) => {
    const value = delays[name];
    const shown =
      typeof value === 'number' ? `${value} ms` : value === undefined ? '—' : '(computed)';
    return [code(name), shown, (delayUses.get(name) ?? ['— (unused)']).join(', ')];
  });

  return [
    `<!-- Generated by \`${MACHINE_DOCS_COMMAND}\` from ${entry.file}. Do not edit: regenerate instead. -->`,
    '',
    `# ${entry.name} machine`,
    '',
    `Machine id ${code(machine.id)}, exported as ${code(entry.exportName)} from [${code(entry.file)}](../../${entry.file}).`,
    '',
    '## Diagram',
    '',
    '```mermaid',
    machineToMermaid(machine),
    '```',
    '',
    '## Events',
    '',
    table(['Event', 'In state', 'Goes to', 'Guard', 'Actions'], eventRows),
    '',
    '## Guards',
    '',
    table(['Guard', 'Checked on'], guardRows),
    '',
    '## Actors',
    '',
    table(['Actor (invoke src)', 'Invoked in'], actorRows),
    '',
    '## Actions',
    '',
    table(['Action', 'Runs on'], actionRows),
    '',
    '## Delays',
    '',
    table(['Delay', 'Value', 'Used in'], delayRows),
    '',
  ].join('\n');
}

/** The index page, `docs/machines/README.md`. */
function indexMarkdown(entries: MachineEntry[]): string {
  const rows = entries.map(({ name, file, exportName, machine }) => {
    const nodes = allNodes(machine.root);
    const events = unique(
      nodes.flatMap((node) =>
        edgesOf(machine, node).flatMap((edge) => (edge.event === null ? [] : [edge.event])),
      ),
    );
    return [
      `[${name}](${name}.md)`,
      code(machine.id),
      `[${code(file)}](../../${file}) (${code(exportName)})`,
      String(nodes.length - 1),
      String(events.length),
    ];
  });
  return [
    `<!-- Generated by \`${MACHINE_DOCS_COMMAND}\`. Do not edit: regenerate instead. -->`,
    '',
    '# State machines',
    '',
    `One page per XState machine exported by \`src/machines/*.machine.ts\`, generated from the machine definitions by \`${MACHINE_DOCS_COMMAND}\`. The unit tests fail when a page here is stale.`,
    '',
    table(['Page', 'Machine id', 'Source', 'States', 'Events'], rows),
    '',
  ].join('\n');
}

/** Every page, keyed by file name inside `docs/machines/` (`list.md`, ..., `README.md`). */
export function generateMachineDocs(entries: MachineEntry[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const entry of entries) pages.set(`${entry.name}.md`, machineToMarkdown(entry));
  pages.set('README.md', indexMarkdown(entries));
  return pages;
}

/**
 * The stale pages: generated pages that are missing or differ from `actual` (the committed
 * files, keyed like `generateMachineDocs`), and committed `.md` files nothing generates.
 */
export function findStalePages(
  expected: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, string>,
): string[] {
  const stale = [...expected].filter(([name, text]) => actual.get(name) !== text).map(([n]) => n);
  const orphans = [...actual.keys()].filter((name) => name.endsWith('.md') && !expected.has(name));
  return unique([...stale, ...orphans]);
}

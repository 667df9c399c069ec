import { describe, expect, it } from 'vitest';
import {
  MACHINE_DOCS_COMMAND,
  findStalePages,
  generateMachineDocs,
  machineToMermaid,
  machinesOfModules,
} from './machine-docs';

// The same discovery as `npm run machines`: every machine exported by a *.machine.ts module.
const entries = machinesOfModules(import.meta.glob('../machines/*.machine.ts', { eager: true }));
const generated = generateMachineDocs(entries);
// The committed pages, read through Vite as text.
const committed = new Map(
  Object.entries(
    import.meta.glob<string>('../../docs/machines/*.md', {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  ).map(([path, text]) => [path.split('/').pop() ?? path, text]),
);
const entry = (name: string) => {
  const found = entries.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no machine page named ${name}`);
  return found;
};

describe('machine docs', () => {
  it('finds every machine of src/machines', () => {
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(['autocomplete', 'list', 'session', 'spawn']),
    );
  });

  it.each([...generated.keys()])('docs/machines/%s is up to date', (name) => {
    expect(
      committed.get(name),
      `docs/machines/${name} is stale: run \`${MACHINE_DOCS_COMMAND}\` and commit the result`,
    ).toBe(generated.get(name));
  });

  it('has no page for a machine that no longer exists', () => {
    const orphans = [...committed.keys()].filter((name) => !generated.has(name));
    expect(orphans, `run \`${MACHINE_DOCS_COMMAND}\` to remove them`).toEqual([]);
  });

  it('detects an edited, missing or orphaned page', () => {
    const edited = new Map(generated);
    edited.set('list.md', `${generated.get('list.md')}\nA hand edit.\n`);
    edited.delete('spawn.md');
    edited.set('gone.md', '# gone machine\n');
    expect(findStalePages(generated, edited)).toEqual(['gone.md', 'list.md', 'spawn.md']);
    expect(findStalePages(generated, new Map(generated))).toEqual([]);
  });

  it('is deterministic', () => {
    expect(
      generateMachineDocs(
        machinesOfModules(import.meta.glob('../machines/*.machine.ts', { eager: true })),
      ),
    ).toEqual(generated);
  });

  it('draws parallel regions separated by --', () => {
    const diagram = machineToMermaid(entry('spawn').machine);
    const block = diagram.slice(diagram.indexOf('state spawn_spawning {'));
    expect(block).toMatch(
      /state spawn_spawning \{\n\s+spawn_spawning_effect : effect\n\s+state spawn_spawning_effect \{[\s\S]*?\n\s+}\n\s+--\n\s+spawn_spawning_animation : animation\n\s+state spawn_spawning_animation \{/,
    );
    expect(diagram).toContain('spawn_spawning --> spawn_spawned : onDone');
    expect(diagram).toContain(
      'spawn_spawning_effect_fading --> spawn_spawning_effect_done : after 500ms',
    );
    expect(diagram).toContain('spawn_spawning_effect_done --> [*]');
  });

  it('draws nested states inside their parent, with guards and delays on the arrows', () => {
    const diagram = machineToMermaid(entry('list').machine);
    expect(diagram).toMatch(
      /state list_observing \{\n\s+\[\*] --> list_observing_loading\n\s+state "loading" as list_observing_loading\n/,
    );
    expect(diagram).toContain('list_debouncing --> list_observing : after 250ms');
    expect(diagram).toContain(
      'list_observing_success_idle --> list_observing_success_reordering : MOVE, SET_ORDER [canMove]',
    );
    expect(diagram).toContain(
      'list_observing_success_reordering --> list_observing_loading : onDone reorder [moveLeftView]',
    );
    // Mermaid ids are plain words: no dots or spaces.
    const ids = [...diagram.matchAll(/^\s*(\S+) --> (\S+)/gm)].flatMap((m) => [m[1], m[2]]);
    for (const id of ids) expect(id).toMatch(/^(\[\*]|[A-Za-z_][A-Za-z0-9_]*)$/);
  });

  it('draws a parallel root (autocomplete) with its regions', () => {
    const diagram = machineToMermaid(entry('autocomplete').machine);
    expect(diagram).toMatch(
      /state autocomplete \{\n[\s\S]*state autocomplete_labels \{[\s\S]*\n\s+--\n[\s\S]*state autocomplete_search \{/,
    );
    expect(diagram).toContain('autocomplete_labels --> autocomplete_labels_checking : SET_VALUE');
  });
});

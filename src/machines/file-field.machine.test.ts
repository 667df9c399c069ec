/**
 * Model-based tests (src/machines/testing/path-tests.ts): a small abstract model of spec §4/§5
 * "File upload control" generates paths; each drives the real file field machine with a fake
 * validateFile actor whose calls the path's events answer, and together they must reach every
 * state and transition of the real machine. Focused tests follow for what
 * the model does not spell: stale answers, the touched rule, analytics payloads. The real
 * validator on PngSuite files is exercised through the control (file-field.test.tsx).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { setAnalyticsSink } from '../api/analytics';
import type { FileError } from '../../core/files/validate';
import {
  fileNameOfUrl,
  selectFileName,
  selectIsDragging,
  selectView,
  selectVisibleError,
  fileFieldMachine,
  type FileFieldEmitted,
  type FileFieldInput,
  type ValidateFileInput,
} from './file-field.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';

// ---------------------------------------------------------------- files and the fake validator

const file = (name: string, size = 100, type = 'image/png') =>
  new File([new Uint8Array(size)], name, { type });

/** The fake validator's verdict, by file name. */
const VERDICTS: Record<string, FileError | null> = {
  'good.png': null,
  'bad.png': { key: 'fileInput.wrongColorType', values: { expected: 'rgba' } },
};

const STORED_URL = '/v1/uploads/icon/7f3a/my%20icon.png?v=2';

interface Call {
  input: ValidateFileInput;
  signal: AbortSignal;
  answer: (outcome: { ok: FileError | null } | { error: Error }) => Promise<void>;
}

/** Lets the actor take a settled promise. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(input: Partial<FileFieldInput> = {}, tools?: PathTools) {
  const calls: Call[] = [];
  const validateFile = fromPromise<FileError | null, ValidateFileInput>(
    ({ input: callInput, signal }) =>
      new Promise((resolve, reject) => {
        calls.push({
          input: callInput,
          signal,
          answer: async (outcome) => {
            if ('ok' in outcome) resolve(outcome.ok);
            else reject(outcome.error);
            await flush();
          },
        });
      }),
  );
  const actor = createActor(fileFieldMachine.provide({ actors: { validateFile } }), {
    input: { kind: 'icon', ...input },
    ...tools,
  });
  const emitted: FileFieldEmitted[] = [];
  /** What the form holds: what the field emitted, or what the form itself set (SYNC). */
  const form: { file: File | null; error: FileError | null } = { file: null, error: null };
  actor.on('CHANGED', (event) => {
    emitted.push(event);
    Object.assign(form, { file: event.file, error: event.error });
  });
  actor.start();
  return {
    actor,
    calls,
    emitted,
    form,
    snapshot: () => actor.getSnapshot(),
    /** The one check whose answer still counts. */
    current: () => {
      const live = calls.filter((call) => !call.signal.aborted);
      expect(live.length).toBeGreaterThan(0);
      return live.at(-1) as Call;
    },
  };
}
type Harness = ReturnType<typeof harness>;

let tracked: Array<[string, unknown]>;
beforeEach(() => {
  tracked = [];
  setAnalyticsSink((name, props) => tracked.push([name, props]));
});
afterEach(() => setAnalyticsSink(null));

// ---------------------------------------------------------------- the abstract model

interface Model {
  touched: boolean;
  /** The error key the field holds. */
  error: string | null;
  /** What the check in flight will answer. */
  pending: 'good.png' | 'bad.png' | null;
  /** What the form holds. */
  value: 'none' | 'file' | 'url';
}

type ModelEvent = {
  type:
    | 'DRAG_ENTER'
    | 'DRAG_LEAVE'
    | 'SELECT_GOOD'
    | 'SELECT_BAD'
    | 'REJECT_TYPE'
    | 'REJECT_LARGE'
    | 'REJECT_SMALL'
    | 'ANSWER'
    | 'THROW'
    | 'REMOVE'
    | 'SYNC_URL'
    | 'SYNC_FILE'
    | 'SYNC_CLEAR';
};

const select = (pending: Model['pending']) =>
  assign<Model, ModelEvent, undefined, ModelEvent, never>({
    touched: true,
    error: null,
    pending,
    value: 'file',
  });
const rejected = (error: string) =>
  assign<Model, ModelEvent, undefined, ModelEvent, never>({
    touched: true,
    error,
    pending: null,
    value: 'file',
  });
const dragArea = {
  initial: 'idle',
  states: {
    idle: { on: { DRAG_ENTER: 'dragging' } },
    dragging: { on: { DRAG_LEAVE: 'idle' } },
  },
} as const;

const model = setup({ types: { context: {} as Model, events: {} as ModelEvent } }).createMachine({
  id: 'uploadModel',
  context: { touched: false, error: null, pending: null, value: 'none' },
  initial: 'empty',
  on: {
    SELECT_GOOD: { target: '.validating', actions: select('good.png') },
    SELECT_BAD: { target: '.validating', actions: select('bad.png') },
    // A file whose name, type or size break the drop rules is refused without a check.
    REJECT_TYPE: { target: '.invalid', actions: rejected('fileInput.wrongType') },
    REJECT_LARGE: { target: '.invalid', actions: rejected('fileInput.tooLarge') },
    REJECT_SMALL: { target: '.invalid', actions: rejected('fileInput.tooSmall') },
    REMOVE: {
      guard: ({ context }) => context.value !== 'none',
      target: '.empty',
      actions: assign({ touched: true, error: null, pending: null, value: 'none' }),
    },
    SYNC_URL: {
      guard: ({ context }) => context.value !== 'url',
      target: '.chosen',
      actions: assign({ error: null, pending: null, value: 'url' }),
    },
    // The form hands over a file it holds (a restored draft): checked, but not touched.
    SYNC_FILE: {
      target: '.validating',
      actions: assign({ error: null, pending: 'bad.png', value: 'file' }),
    },
    SYNC_CLEAR: {
      guard: ({ context }) => context.value !== 'none',
      target: '.empty',
      actions: assign({ error: null, pending: null, value: 'none' }),
    },
  },
  states: {
    empty: dragArea,
    validating: {
      on: {
        ANSWER: [
          {
            guard: ({ context }) => context.pending === 'good.png',
            target: 'chosen',
            actions: assign({ pending: null }),
          },
          {
            target: 'invalid',
            actions: assign({ pending: null, error: 'fileInput.wrongColorType' }),
          },
        ],
        THROW: {
          target: 'invalid',
          actions: assign({ pending: null, error: 'fileInput.corrupt' }),
        },
      },
    },
    chosen: {},
    invalid: dragArea,
  },
});

type ModelSnapshot = { value: unknown; context: Model };

/** The abstract state's name: `empty.dragging`, `chosen`, ... */
const nameOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([key, inner]) => `${key}.${nameOf(inner)}`)
        .join('');

function check(h: Harness, { value, context: m }: ModelSnapshot) {
  const name = nameOf(value);
  const snapshot = h.snapshot();
  expect(selectView(snapshot)).toBe(name.split('.')[0]);
  expect(selectIsDragging(snapshot)).toBe(name.endsWith('.dragging'));
  expect(snapshot.context.error?.key ?? null).toBe(m.error);
  expect(snapshot.context.touched).toBe(m.touched);
  // Spec §5: an error shows once the field was touched, or once the form was submitted.
  expect(selectVisibleError(snapshot, false)?.key ?? null).toBe(m.touched ? m.error : null);
  expect(selectVisibleError(snapshot, true)?.key ?? null).toBe(m.error);
  const fileName = selectFileName(snapshot);
  if (m.value === 'none') expect(fileName).toBeNull();
  if (m.value === 'url') expect(fileName).toBe('my icon.png');
  if (m.value === 'file') expect(fileName).toMatch(/\.(png|txt)$/);
  if (m.pending) expect(h.current().input.file.name).toBe(m.pending);
  // Once a check is done, the form holds the error the field shows (and can block a submit).
  if (name !== 'validating') expect(h.form.error?.key ?? null).toBe(m.error);
}

function events(h: Harness) {
  const send = (event: () => Parameters<Harness['actor']['send']>[0]) => () => {
    h.actor.send(event());
  };
  /** The form sets its own value (reset, a loaded record, a restored draft). */
  const sync = (value: { file: File | null; url: string | null }) => () => {
    Object.assign(h.form, { file: value.file, error: null });
    h.actor.send({ type: 'SYNC', ...value });
  };
  const answer = async () => {
    const call = h.current();
    await call.answer({ ok: VERDICTS[call.input.file.name] ?? null });
  };
  return {
    DRAG_ENTER: send(() => ({ type: 'DRAG_ENTER' })),
    DRAG_LEAVE: send(() => ({ type: 'DRAG_LEAVE' })),
    SELECT_GOOD: send(() => ({ type: 'SELECT', file: file('good.png') })),
    SELECT_BAD: send(() => ({ type: 'SELECT', file: file('bad.png') })),
    REJECT_TYPE: send(() => ({ type: 'SELECT', file: file('notes.txt', 100, 'text/plain') })),
    REJECT_LARGE: send(() => ({ type: 'SELECT', file: file('huge.png', 6 * 1024 * 1024) })),
    REJECT_SMALL: send(() => ({ type: 'SELECT', file: file('tiny.png', 3) })),
    ANSWER: answer,
    THROW: () => h.current().answer({ error: new Error('read failed') }),
    REMOVE: send(() => ({ type: 'REMOVE' })),
    SYNC_URL: () => sync({ file: null, url: STORED_URL })(),
    SYNC_FILE: () => sync({ file: file('bad.png'), url: null })(),
    SYNC_CLEAR: () => sync({ file: null, url: null })(),
  };
}

describeMachinePaths(fileFieldMachine, {
  suites: [
    pathSuite({
      name: 'the field (spec §4/§5 model)',
      model,
      system: (tools) => {
        const h = harness({}, tools);
        return { actor: h.actor, states: { '*': (state) => check(h, state) }, events: events(h) };
      },
    }),
  ],
});

// ---------------------------------------------------------------- focused tests

describe('file field machine — spec rules', () => {
  it('highlights the field while a file is dragged over it, also when it shows an error', async () => {
    const h = harness();
    h.actor.send({ type: 'DRAG_ENTER' });
    expect(selectIsDragging(h.snapshot())).toBe(true);
    h.actor.send({ type: 'DRAG_LEAVE' });
    expect(selectIsDragging(h.snapshot())).toBe(false);
    h.actor.send({ type: 'SELECT', file: file('bad.png') });
    await h.current().answer({ ok: VERDICTS['bad.png'] ?? null });
    h.actor.send({ type: 'DRAG_ENTER' });
    expect(selectIsDragging(h.snapshot())).toBe(true);
  });

  it('Remove empties the field, tells the form, and it is ready for another file', async () => {
    const h = harness();
    h.actor.send({ type: 'SELECT', file: file('good.png') });
    await h.current().answer({ ok: null });
    h.actor.send({ type: 'REMOVE' });
    expect(selectView(h.snapshot())).toBe('empty');
    expect(h.emitted.at(-1)).toEqual({ type: 'CHANGED', file: null, error: null });
  });

  it('drops the answer of a check that a newer selection replaced', async () => {
    const h = harness();
    const slow = file('good.png');
    h.actor.send({ type: 'SELECT', file: slow });
    h.actor.send({ type: 'SELECT', file: file('bad.png') });
    const [first, second] = h.calls as [Call, Call];
    expect(first.signal.aborted).toBe(true);
    await first.answer({ ok: null });
    expect(selectView(h.snapshot())).toBe('validating');
    expect(h.emitted).toEqual([]);

    await second.answer({ ok: VERDICTS['bad.png'] ?? null });
    expect(selectView(h.snapshot())).toBe('invalid');
    expect(h.emitted).toEqual([
      { type: 'CHANGED', file: second.input.file, error: VERDICTS['bad.png'] },
    ]);
  });

  it('clears the previous error on a new selection and marks the field touched', async () => {
    const h = harness();
    h.actor.send({ type: 'SELECT', file: file('a.txt', 100, 'text/plain') });
    expect(h.snapshot().context.error?.key).toBe('fileInput.wrongType');
    h.actor.send({ type: 'SELECT', file: file('good.png') });
    expect(h.snapshot().context.error).toBeNull();
    expect(h.snapshot().context.touched).toBe(true);
    await h.current().answer({ ok: null });
    expect(selectView(h.snapshot())).toBe('chosen');
  });

  it('checks a file the form starts with, showing its error only once submitted', async () => {
    const h = harness({ file: file('bad.png') });
    expect(selectView(h.snapshot())).toBe('validating');
    await h.current().answer({ ok: VERDICTS['bad.png'] ?? null });
    expect(selectView(h.snapshot())).toBe('invalid');
    expect(selectVisibleError(h.snapshot(), false)).toBeNull();
    expect(selectVisibleError(h.snapshot(), true)?.key).toBe('fileInput.wrongColorType');
    // The form learns the error; the user selected nothing, so only the error is tracked.
    expect(h.emitted).toHaveLength(1);
    expect(tracked).toEqual([
      ['file error', { kind: 'icon', size: 100, error: 'fileInput.wrongColorType' }],
    ]);
  });

  it('shows a stored file as chosen, and Remove clears it for the form', () => {
    const h = harness({ url: STORED_URL });
    expect(selectView(h.snapshot())).toBe('chosen');
    expect(selectFileName(h.snapshot())).toBe('my icon.png');
    expect(h.calls).toEqual([]);
    h.actor.send({ type: 'REMOVE' });
    expect(selectView(h.snapshot())).toBe('empty');
    expect(h.snapshot().context.url).toBeNull();
    expect(h.emitted).toEqual([{ type: 'CHANGED', file: null, error: null }]);
  });

  it('ignores a SYNC of the value it already holds', async () => {
    const h = harness();
    const chosen = file('good.png');
    h.actor.send({ type: 'SELECT', file: chosen });
    await h.current().answer({ ok: null });
    h.actor.send({ type: 'SYNC', file: chosen, url: null });
    expect(selectView(h.snapshot())).toBe('chosen');
    expect(h.calls).toHaveLength(1);
  });

  it('reports a validator that throws as an unreadable file', async () => {
    const h = harness();
    h.actor.send({ type: 'SELECT', file: file('good.png') });
    await h.current().answer({ error: new Error('disk gone') });
    expect(h.snapshot().context.error).toEqual({ key: 'fileInput.corrupt', detail: 'disk gone' });
  });

  it('tracks selection, errors and removal with kind, size and error key only', async () => {
    const h = harness({ kind: 'texture' });
    h.actor.send({ type: 'SELECT', file: file('good.png', 321) });
    await h.current().answer({ ok: null });
    h.actor.send({ type: 'SELECT', file: file('bad.png', 654) });
    await h.current().answer({ ok: VERDICTS['bad.png'] ?? null });
    h.actor.send({ type: 'SELECT', file: file('huge.png', 6 * 1024 * 1024) });
    h.actor.send({ type: 'REMOVE' });
    expect(tracked).toEqual([
      ['file selected', { kind: 'texture', size: 321 }],
      ['file selected', { kind: 'texture', size: 654 }],
      ['file error', { kind: 'texture', size: 654, error: 'fileInput.wrongColorType' }],
      ['file selected', { kind: 'texture', size: 6 * 1024 * 1024 }],
      ['file error', { kind: 'texture', size: 6 * 1024 * 1024, error: 'fileInput.tooLarge' }],
      ['file removed', { kind: 'texture' }],
    ]);
  });
});

describe('the drop rules', () => {
  it('refuses a file by its name, type or size at once, with the values of its message', () => {
    const icon = harness();
    icon.actor.send({ type: 'SELECT', file: file('huge.png', 6 * 1024 * 1024) });
    expect(selectView(icon.snapshot())).toBe('invalid');
    expect(icon.snapshot().context.error).toEqual({
      key: 'fileInput.tooLarge',
      values: { max: '5 MB', size: '6 MB' },
    });
    const texture = harness({ kind: 'texture' });
    texture.actor.send({ type: 'SELECT', file: file('notes.txt', 100, 'text/plain') });
    expect(texture.snapshot().context.error).toMatchObject({
      key: 'fileInput.wrongType',
      values: { accepted: '.png, .jpg, .jpeg' },
    });
    // Refused without reading the bytes: no check was started.
    expect([...icon.calls, ...texture.calls]).toEqual([]);
    expect(icon.emitted).toEqual([
      { type: 'CHANGED', file: icon.snapshot().context.file, error: icon.snapshot().context.error },
    ]);
  });
});

describe('fileNameOfUrl', () => {
  it.each([
    ['/v1/uploads/icon/7f3a/my%20icon.png?v=2', 'my icon.png'],
    ['https://cdn.example.com/a/b/model.glb#top', 'model.glb'],
    ['/files/texture.jpg/', 'texture.jpg'],
    ['/files/%E0%A4%A.png', '%E0%A4%A.png'],
  ])('%s → %s', (url, name) => {
    expect(fileNameOfUrl(url)).toBe(name);
  });
});

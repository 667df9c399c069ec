import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, SimulatedClock } from 'xstate';
import { createMachineCoverage } from './path-tests';

const machine = setup({
  actors: { work: fromPromise(() => Promise.resolve('ok')) },
  guards: { never: () => false },
}).createMachine({
  id: 'demo',
  initial: 'idle',
  on: { RESET: '.idle' },
  states: {
    idle: {
      on: { GO: 'waiting', SKIP: { guard: 'never', target: 'done' } },
    },
    waiting: { after: { 100: 'working' } },
    working: {
      invoke: { src: 'work', onDone: 'done', onError: 'idle' },
    },
    done: {
      initial: 'checking',
      states: { checking: { always: 'shown' }, shown: {} },
    },
  },
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('machine coverage', () => {
  it('names every state and transition a run did not reach', async () => {
    const coverage = createMachineCoverage(machine);
    const clock = new SimulatedClock();
    const actor = createActor(machine, { clock, inspect: (e) => void coverage.observe(e) });
    actor.start();
    actor.send({ type: 'GO' });
    clock.increment(100);
    await flush();
    actor.stop();
    expect(coverage.report(1)).toEqual({
      machine: 'demo',
      paths: 1,
      // The transient `done.checking` counts: an `always` transition left it.
      states: { reached: 6, total: 6 },
      transitions: { reached: 4, total: 7 },
      unreached: [
        'transition (machine): RESET -> idle',
        'transition idle: SKIP [never] -> done',
        'transition working: error: work -> idle',
      ],
    });
  });

  it('ignores child actors: they have tests of their own', () => {
    const coverage = createMachineCoverage(machine);
    const parent = createActor(
      setup({ actors: { demo: machine } }).createMachine({ invoke: { src: 'demo' } }),
      { inspect: (e) => void coverage.observe(e) },
    ).start();
    expect(coverage.report(0).states.reached).toBe(0);
    parent.stop();
  });
});

/**
 * The unit and component projects of vitest.config.ts for `npm run mutation` (stryker.config.mjs),
 * narrowed to the tests of the modules it mutates, each test file with fresh modules.
 *
 * Stryker activates a mutant of a module's top level (a constant, a function bound to a name)
 * only as the module loads: a worker that kept the module from an earlier run
 * (`isolate: false`) never loads it again, and Stryker's own `testFiles` option activates such
 * a mutant only after the load. Either way it would survive every test, so the files are chosen
 * here and each file loads its modules afresh.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** Each mutated module's own unit tests (stryker.config.mjs lists the modules). */
const MUTATION_TEST_FILES = [
  'core/files/validate.test.ts',
  'core/files/validate.edges.test.ts',
  'src/api/http.dom.test.ts',
  'src/api/http.needs-refresh.test.ts',
  'src/api/http.options.dom.test.ts',
  'src/machines/list.rules.test.ts',
  'contract/list-query.test.ts',
  'contract/paths.test.ts',
];

/** The files a project runs: those that need a browser's globals in `dom`, the others in `unit`. */
const needsDom = (file) => /\.(dom\.test\.ts|test\.tsx)$/.test(file);
const FILES_OF = {
  unit: MUTATION_TEST_FILES.filter((file) => !needsDom(file)),
  dom: MUTATION_TEST_FILES.filter(needsDom),
};

export default defineConfig({
  test: {
    projects: base.test.projects
      .filter((project) => project.test?.name in FILES_OF)
      .map((project) => ({
        ...project,
        test: { ...project.test, include: FILES_OF[project.test.name], isolate: true },
      })),
  },
});

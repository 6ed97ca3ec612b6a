// vitest setupFiles: runs in every test file before its tests. Registered first, this afterAll
// runs last (hooks run as a stack), after the file's own hooks have stopped its sandboxes and
// processes.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);

// Temporary data folders for the store tests, removed after each test.
export { tempDir } from '../helpers.ts';

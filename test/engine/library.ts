// What the tests expect of the embedded engine's animation library, written out on its own (not read from the
// engine) and free of side effects, so that the engine, e2e and Blender tests all check the same list.

/** The engine's animation library: its clips' labels, in order (as the README lists them). */
export const LIBRARY_CLIPS = ['Idle', 'Walk', 'Run', 'Jump', 'Wave', 'Sit'];

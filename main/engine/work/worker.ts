// A worker thread of the engine's pool (pool.ts): runs one task at a time (tasks.ts) and answers its result,
// its bytes transferred, or the error that ended it.
import { serveTasks } from '../../work/serve-tasks.ts';
import { runTask, type Task } from './tasks.ts';

serveTasks<Task>('main/engine/work/worker.ts', runTask);

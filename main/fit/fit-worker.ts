// The worker thread of fit-thread.ts: reads the model files it is sent and answers their engine-fit facts.
import { readFile } from 'node:fs/promises';
import { serveTasks } from '../work/serve-tasks.ts';
import type { FactsTask } from './fit-thread.ts';
import { glbFacts } from './read-model.ts';

serveTasks<FactsTask>('main/fit/fit-worker.ts', async ({ path }) => glbFacts(await readFile(path)));

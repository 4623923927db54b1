// Preloaded with `node --import` by loaded-modules.test.ts: records the URL of every module the process loads
// (the module loader's load hook sees each one once, compile cache or not) and writes them, one a line, to the
// file named by RECORD_LOADS_TO when the process exits.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.RECORD_LOADS_TO;
const urls: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    urls.push(url);
    return nextLoad(url, context);
  },
});
if (out) process.on('exit', () => writeFileSync(out, `${urls.join('\n')}\n`));

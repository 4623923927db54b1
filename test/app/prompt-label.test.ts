// A text-animation job is titled by its prompts; the prompts the service refused leave the title once it has
// answered (shared/kinds/animation.ts labelWithoutRefused, main/app/prompt-label.ts). Through the app's create on
// the embedded engine, over HTTP: "walk forward, qwzx blorp" is titled "walk forward".
import { describe, expect, it } from 'vitest';
import { SendingCreates } from '../../main/app/create-job.ts';
import { createServices } from '../../main/app/services.ts';
import { labelWithoutRefused } from '../../shared/kinds/animation.ts';
import { tempDataDir } from '../cli/run-cli.ts';
import { realFixture } from '../fixtures.ts';

const answers = (...xs: [string, boolean][]) => xs.map(([text, isError]) => ({ text, isError }));

describe('labelWithoutRefused', () => {
  it.each([
    ['walk forward, qzxv blorp', answers(['walk forward', false], ['qzxv blorp', true]), 'walk forward'],
    ['qzxv blorp, walk forward', answers(['qzxv blorp', true], ['walk forward', false]), 'walk forward'],
    ['walk, qzxv, wave', answers(['walk', false], ['qzxv', true], ['wave', false]), 'walk, wave'],
    [
      'animate-text SESSION_x walk qzxv blorp',
      answers(['walk', false], ['qzxv blorp', true]),
      'animate-text SESSION_x walk',
    ],
    ['hero: qzxv, walk', answers(['qzxv', true], ['walk', false]), 'hero: walk'],
    ['walk, wave', answers(['walk', false], ['wave', false]), 'walk, wave'],
    ['qzxv', answers(['qzxv', true]), 'Text animation (every prompt refused)'],
  ])('%s → %s', (label, responses, expected) => {
    expect(labelWithoutRefused(label, responses)).toBe(expected);
  });
});

describe('a text-animation job created from the app', () => {
  it('is titled by the prompts the engine accepted, not the refused ones', async () => {
    const services = await createServices({ dataDir: tempDataDir() }, { engineSpeed: 1000 });
    try {
      const creates = new SendingCreates();
      const upload = await creates.create(services, {
        endpoint: 'uploadAnimationMesh',
        file: realFixture('fbx', 'Male_Casual.fbx'),
      });
      const session = upload.job!.remoteId!;
      const prompts = await creates.create(services, {
        endpoint: 'submitTextAnimations',
        body: { session_code: session, texts: ['walk forward', 'qwzx blorp'] },
      });
      expect(prompts.job!.label).toBe('walk forward');
      expect(services.store.jobs.get(prompts.job!.id)!.label).toBe('walk forward');
      // The app's page names the job after the character, the prompts after it: the refused one leaves too.
      const named = await creates.create(services, {
        endpoint: 'submitTextAnimations',
        body: { session_code: session, texts: ['qwzx blorp', 'wave hello'] },
        label: 'Male_Casual.fbx: qwzx blorp, wave hello',
      });
      expect(named.job!.label).toBe('Male_Casual.fbx: wave hello');
      // The answer still says why the other was refused, and what the accepted one plays.
      const responses = (prompts as { data: { responses: { text: string; message: string }[] } }).data.responses;
      expect(responses[0]!.message).toMatch(/played as: walk/);
      expect(responses[1]!.message).toMatch(/qwzx, blorp/);
    } finally {
      await services.close();
    }
  }, 120_000);
});

// Issue 14, item 11: the older create takes auto_gen_3d as a boolean or as the strings "true" / "false"
// (older scripts send strings); anything else is a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_DATA_URI, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { pollData, pythonPost } from './third-party.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.dispose());

const status = (code: string) =>
  pollData(
    `${engine.url}/image-to-3d-sessions/get-mesh/${code}`,
    (d) => ['spin_generate_done', 'preview_done'].includes(d[0].status) || d[0].status.endsWith('_failed'),
  );

describe('item 11: auto_gen_3d as "true" / "false"', () => {
  it('accepts the strings and booleans, and refuses anything else naming the field', async () => {
    const created: Record<string, string> = {};
    for (const [name, value] of [
      ['string true', 'true'],
      ['string false', 'false'],
      ['boolean true', true],
      ["Python's str(True)", 'True'],
      ["Python's str(False)", 'False'],
    ] as const) {
      const answer = await pythonPost(`${engine.legacyUrl}/image-to-3d-sessions`, {
        image_url: PNG_DATA_URI,
        model_version: '',
        auto_gen_3d: value,
      });
      expect(answer.status, name).toBe(201);
      expect(answer.body.data.status, name).toBe('uploaded');
      created[name] = answer.body.data.session_code;
    }
    // "true" generates the preview on its own; "false" stops after the spin views.
    for (const name of ['string true', 'boolean true', "Python's str(True)"]) {
      const auto = await pollData(
        `${engine.url}/image-to-3d-sessions/get-mesh/${created[name]}`,
        (d) => d[0].status === 'preview_done' || d[0].status.endsWith('_failed'),
      );
      expect(auto[0].status, name).toBe('preview_done');
      expect(auto[0].preview_mesh_url_glb, name).toMatch(/^http/);
    }
    const manual = await status(created['string false']!);
    expect(manual[0].status).toBe('spin_generate_done');

    for (const bad of ['yes', 'truthy', 1, null]) {
      const answer = await pythonPost(`${engine.legacyUrl}/image-to-3d-sessions`, {
        image_url: PNG_DATA_URI,
        auto_gen_3d: bad,
      });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.message).toMatch(/auto_gen_3d: must be true or false/);
    }
  });
});

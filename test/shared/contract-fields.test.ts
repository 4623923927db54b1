// The building blocks of the contract's schemas that several schemas share (shared/contract/common.ts).
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { describeIssues, jsonOf, modelName, optionalTexts } from '../../shared/contract/index.ts';
import { asset, createImageToKitV3Request } from '../../shared/contract/v3.ts';

describe('optionalTexts', () => {
  it('makes each named field an optional text, in the order named', () => {
    const schema = z.object(optionalTexts('a', 'b'));
    expect(Object.keys(schema.shape)).toEqual(['a', 'b']);
    expect(schema.parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(schema.parse({})).toEqual({});
    expect(schema.safeParse({ b: 3 }).success).toBe(false);
  });

  it("reads a v3 asset's file URLs, any of them absent", () => {
    const parsed = asset.parse({ _id: 'ASSET_1', status: 'complete', data: { glb_url: 'https://x/a.glb' } });
    expect(parsed.data).toEqual({ glb_url: 'https://x/a.glb' });
    expect(asset.safeParse({ _id: 'ASSET_1', status: 'complete', data: { obj_url: 1 } }).success).toBe(false);
  });
});

describe('modelName', () => {
  it('takes any name but an empty one, trimmed, with its fallback when absent', () => {
    const model = modelName('sculpt');
    expect(model.parse(undefined)).toBe('sculpt');
    expect(model.parse(' turbo ')).toBe('turbo');
    const empty = model.safeParse('  ');
    expect(empty.success).toBe(false);
    expect(describeIssues(empty.error!)[0]!.message).toBe('must be a model name, e.g. "sculpt"');
  });

  it('is the decomposition model of image_to_kit', () => {
    const images = ['https://x/front.png', 'https://x/side.png'];
    const kit = createImageToKitV3Request.parse({ type: 'image_to_kit', input: { image: images[0] } });
    expect(kit.input.decomposition_model).toBe('pro');
    const refused = createImageToKitV3Request.safeParse({
      type: 'image_to_kit',
      input: { image: images[0], decomposition_model: '' },
    });
    expect(describeIssues(refused.error!)[0]).toMatchObject({ message: 'must be a model name, e.g. "pro"' });
  });
});

describe('jsonOf', () => {
  const manifest = jsonOf(z.object({ dependencies: z.record(z.string(), z.string()) }));

  it('reads a text as JSON, then as the schema', () => {
    expect(manifest.parse('{"dependencies": {"a": "1"}}')).toEqual({ dependencies: { a: '1' } });
    const wrong = manifest.safeParse('{"dependencies": 3}');
    expect(wrong.success).toBe(false);
    expect(describeIssues(wrong.error!)[0]!.path).toBe('dependencies');
  });

  it('fails, without throwing, on a text that is not JSON', () => {
    const broken = manifest.safeParse('{"dependencies": ');
    expect(broken.success).toBe(false);
    expect(describeIssues(broken.error!)[0]!.message).toBe('must be JSON');
    expect(manifest.safeParse(42).success).toBe(false);
  });
});

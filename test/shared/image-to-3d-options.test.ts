// One table of the image-to-3D options beside their schema (issue #34 item 1): every field of the create has its
// line, and the CLI's options, its parsing and the form's defaults are read from it, so a new optional field is
// its schema and its line.
import { describe, expect, it } from 'vitest';
import { createImageTo3dRequest, IMAGE_TO_3D_DEFAULTS, IMAGE_TO_3D_OPTIONS } from '../../shared/contract/index.ts';
import { IMAGE_OPTIONS } from '../../main/cli/command-table.ts';
import { imageOptionsFrom } from '../../main/cli/commands.ts';

describe('the image-to-3D options table', () => {
  it('has a line for every optional field of the create, and nothing else', () => {
    const fields = Object.keys(createImageTo3dRequest.shape).filter((f) => f !== 'image_url');
    expect(IMAGE_TO_3D_OPTIONS.map((o) => o.field).sort()).toEqual(fields.sort());
  });

  it('gives the CLI its options, and its parsing gives the request the schema accepts', () => {
    expect(Object.keys(IMAGE_OPTIONS)).toEqual(IMAGE_TO_3D_OPTIONS.map((o) => o.option));
    const given = Object.fromEntries(
      IMAGE_TO_3D_OPTIONS.map((o) => [
        o.option,
        o.kind === 'flag' ? true : o.kind === 'triple' ? '1,-1,2' : o.choices.at(-1)!,
      ]),
    );
    const body = imageOptionsFrom(given);
    expect(Object.keys(body).sort()).toEqual(IMAGE_TO_3D_OPTIONS.map((o) => o.field).sort());
    expect(createImageTo3dRequest.parse({ image_url: 'https://example.com/a.png', ...body })).toMatchObject({
      scaled_bbox: [1, -1, 2],
      preserve_aspect_ratio: true,
      texture_model: 'pbr',
    });
  });

  it("takes its defaults from the schema's own parse", () => {
    expect(IMAGE_TO_3D_DEFAULTS).toEqual({
      geometry_model: 'base',
      texture_model: 'none',
      scaled_bbox: [-1, -1, -1],
      preserve_aspect_ratio: false,
      topology: 'tris',
      resolution: 'high_poly',
    });
  });
});

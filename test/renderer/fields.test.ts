// A bound field (renderer/src/screens/create/fields.ts) names its request field once: its value and change
// come from the form's record, its touch and messages from the form's checks of that request field.
import { describe, expect, it } from 'vitest';
import { bindFields, type FieldChecks } from '../../renderer/src/screens/create/fields.ts';

/** A form's checks that record what was touched and answer messages from a table. */
function checksOf(messages: Record<string, string[]>) {
  const touched: string[] = [];
  const checks: FieldChecks = { errors: (field) => messages[field], touch: (field) => void touched.push(field) };
  return { checks, touched };
}

describe('bindFields', () => {
  const values = { prompt: 'a chair', is_public: false, typed: 'https://example.com/a.glb' };

  it('gives a control its value, and its change sets that key of the record', () => {
    const set: [string, unknown][] = [];
    const field = bindFields(checksOf({}).checks, values, (key, value) => void set.push([key, value]));
    const prompt = field('prompt');
    const isPublic = field('is_public');
    expect(prompt.value).toBe('a chair');
    expect(isPublic.value).toBe(false);
    prompt.onChange('a table');
    isPublic.onChange(true);
    expect(set).toEqual([
      ['prompt', 'a table'],
      ['is_public', true],
    ]);
  });

  it('touches and reads the messages of the request field: the key, the key after a prefix, or the one named', () => {
    const { checks, touched } = checksOf({
      prompt: ['must not be empty'],
      'webhooks.prompt': ['webhooks only'],
      'input.mesh': ['must be an https URL'],
    });
    const plain = bindFields(checks, values, () => {});
    const prefixed = bindFields(checks, values, () => {}, 'webhooks.');
    expect(plain('prompt').errors).toEqual(['must not be empty']);
    expect(prefixed('prompt').errors).toEqual(['webhooks only']);
    expect(plain('typed', 'input.mesh').errors).toEqual(['must be an https URL']);
    expect(plain('is_public').errors).toBeUndefined();
    plain('prompt').onTouch();
    prefixed('prompt').onTouch();
    plain('typed', 'input.mesh').onTouch();
    expect(touched).toEqual(['prompt', 'webhooks.prompt', 'input.mesh']);
  });
});

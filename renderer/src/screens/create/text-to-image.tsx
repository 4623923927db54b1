// Text to image (with an optional trained style) and style creation.
import { createStyleRequest, createTextToImageRequest } from '../../../../shared/contract/text-to-image.ts';
import { bindFields, useValues } from './fields.ts';
import { FormFooter, useCreateForm, FormShell } from './form.tsx';
import { CheckboxField, TextField } from './inputs.tsx';

export function TextToImageForm() {
  const [values, set] = useValues({ prompt: '', style_id: '' });
  const body = () => ({ prompt: values.prompt, ...(values.style_id.trim() !== '' && { style_id: values.style_id }) });
  const form = useCreateForm(createTextToImageRequest, body);
  const field = bindFields(form, values, set);
  return (
    <FormShell
      titleId="form-title"
      onSubmit={() => {
        void form.submit({ endpoint: 'createTextToImage', body: body(), label: values.prompt.trim().slice(0, 80) });
      }}
    >
      <h2 id="form-title">Text to image</h2>
      <TextField
        id="tti-prompt"
        label="Prompt"
        multiline
        rows={3}
        {...field('prompt')}
        hint="Describe objects, colours, places, characters."
      />
      <TextField
        id="tti-style"
        label="Style id (optional)"
        {...field('style_id')}
        hint="A style made with Create style below or in the service's web application. Empty: no style."
      />
      <FormFooter form={form} label="Create image" endpoint="createTextToImage" created="Text to image" />
    </FormShell>
  );
}

export function StyleForm() {
  const [values, set] = useValues({ zip_url: '', description: '', is_public: false });
  const form = useCreateForm(createStyleRequest, () => values);
  const field = bindFields(form, values, set);
  return (
    <FormShell
      titleId="style-title"
      onSubmit={() => {
        const label = `Style: ${values.description.trim().slice(0, 60)}`;
        void form.submit({ endpoint: 'createStyle', body: values, label });
      }}
    >
      <h2 id="style-title">Create a style</h2>
      <p class="hint">
        Trains a style from a zip of example images. The service cannot report training progress back, so the style is
        listed with the status it was created with.
      </p>
      <TextField
        id="style-zip"
        label="Zip URL of training images"
        type="url"
        {...field('zip_url')}
        placeholder="https://…/images.zip"
      />
      <TextField id="style-description" label="Description" multiline rows={2} {...field('description')} />
      <CheckboxField
        id="style-public"
        label="Public style"
        {...field('is_public')}
        hint="Default off: only your account can use it."
      />
      <FormFooter form={form} label="Create style" endpoint="createStyle" created="Style" />
    </FormShell>
  );
}

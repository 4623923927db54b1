// Text to image (with an optional trained style) and style creation.
import { useState } from 'preact/hooks';
import { createStyleRequest, createTextToImageRequest } from '../../../../shared/contract/text-to-image.ts';
import { CreatedJob, FormFooter, useCreateForm, FormShell } from './form.tsx';
import { CheckboxField, TextField } from './inputs.tsx';

export function TextToImageForm() {
  const [prompt, setPrompt] = useState('');
  const [styleId, setStyleId] = useState('');
  const body = () => ({ prompt, ...(styleId.trim() !== '' && { style_id: styleId }) });
  const form = useCreateForm(createTextToImageRequest, body);
  return (
    <FormShell
      titleId="form-title"
      onSubmit={() => {
        void form.submit({ endpoint: 'createTextToImage', body: body(), label: prompt.trim().slice(0, 80) });
      }}
    >
      <h2 id="form-title">Text to image</h2>
      <TextField
        id="tti-prompt"
        label="Prompt"
        multiline
        rows={3}
        value={prompt}
        onChange={setPrompt}
        onTouch={() => form.touch('prompt')}
        errors={form.errors('prompt')}
        hint="Describe objects, colours, places, characters."
      />
      <TextField
        id="tti-style"
        label="Style id (optional)"
        value={styleId}
        onChange={setStyleId}
        onTouch={() => form.touch('style_id')}
        errors={form.errors('style_id')}
        hint="A style made with Create style below or in the service's web application. Empty: no style."
      />
      <FormFooter form={form} label="Create image" endpoint="createTextToImage" />
      {form.result && <CreatedJob result={form.result} what="Text to image" />}
    </FormShell>
  );
}

export function StyleForm() {
  const [zipUrl, setZipUrl] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setPublic] = useState(false);
  const body = () => ({ zip_url: zipUrl, description, is_public: isPublic });
  const form = useCreateForm(createStyleRequest, body);
  return (
    <FormShell
      titleId="style-title"
      onSubmit={() => {
        void form.submit({ endpoint: 'createStyle', body: body(), label: `Style: ${description.trim().slice(0, 60)}` });
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
        value={zipUrl}
        onChange={setZipUrl}
        onTouch={() => form.touch('zip_url')}
        errors={form.errors('zip_url')}
        placeholder="https://…/images.zip"
      />
      <TextField
        id="style-description"
        label="Description"
        multiline
        rows={2}
        value={description}
        onChange={setDescription}
        onTouch={() => form.touch('description')}
        errors={form.errors('description')}
      />
      <CheckboxField
        id="style-public"
        label="Public style"
        checked={isPublic}
        onChange={setPublic}
        hint="Default off: only your account can use it."
        errors={form.errors('is_public')}
      />
      <FormFooter form={form} label="Create style" endpoint="createStyle" />
      {form.result && <CreatedJob result={form.result} what="Style" />}
    </FormShell>
  );
}

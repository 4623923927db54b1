// Retopology (POST /v3/sessions with type retopology).
import { useState } from 'preact/hooks';
import { RETOPOLOGY_MODELS, createRetopologyRequest } from '../../../../shared/contract/v3.ts';
import { CreatedJob, FormFooter, useCreateForm, FormShell } from './form.tsx';
import { CheckboxField, SelectField, TextField } from './inputs.tsx';

export function RetopologyForm() {
  const [mesh, setMesh] = useState('');
  const [model, setModel] = useState<(typeof RETOPOLOGY_MODELS)[number]>('swift');
  const [quads, setQuads] = useState(true);
  const body = () => ({ type: 'retopology', input: { mesh, model, quads } });
  const form = useCreateForm(createRetopologyRequest, body);
  return (
    <FormShell
      titleId="form-title"
      onSubmit={() => {
        void form.submit({ endpoint: 'createRetopology', body: body(), label: `Retopology ${mesh.trim().split(/[?#]/)[0]!.split('/').pop()?.slice(0, 60) ?? ''}` });
      }}
    >
      <h2 id="form-title">Retopology</h2>
      <TextField id="retopo-mesh" label="Mesh: GLB URL or asset id" value={mesh} onChange={setMesh} onTouch={() => form.touch('input.mesh')} errors={form.errors('input.mesh')} placeholder="https://…/model.glb or ASSET_…" />
      <SelectField
        id="retopo-model"
        label="Model"
        value={model}
        options={RETOPOLOGY_MODELS}
        defaultValue="swift"
        labels={{ swift: 'swift: up to 8K faces, about 5–10 minutes, light topology for mobile games', precision: 'precision: high face count, up to 50 minutes, keeps fine detail' }}
        onChange={setModel}
        errors={form.errors('input.model')}
      />
      <CheckboxField id="retopo-quads" label="Convert triangles to quads where possible" checked={quads} onChange={setQuads} hint="Default on; the result may mix quads and triangles." errors={form.errors('input.quads')} />
      <FormFooter form={form} label="Start retopology" endpoint="createRetopology" />
      {form.result && <CreatedJob result={form.result} what="Retopology" />}
    </FormShell>
  );
}

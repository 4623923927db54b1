// The last few models made from pictures, kept in memory by their spec: a session's GLB, OBJ, textures, FBX,
// USDZ and renders are made from one model, one file at a time (on the same worker: work/pool.ts sends a model's
// files to the worker that made it last), so the model is built once, not once per file. The palettes of style
// zips are kept the same way (artifacts.ts).

/** How many models are kept (the worker pool's affinity remembers as many per worker). */
export const MODELS_KEPT = 4;

/**
 * A cache of the last `size` models used, by their spec (compared as JSON); the least recently used goes first.
 * A `make` that throws remembers nothing.
 */
export function modelCache<Spec, Model>(size = MODELS_KEPT): (spec: Spec, make: () => Model) => Model {
  const models = new Map<string, Model>();
  return (spec, make) => {
    const key = JSON.stringify(spec);
    const known = models.get(key);
    models.delete(key);
    const model = known ?? make();
    models.set(key, model);
    if (models.size > size) models.delete(models.keys().next().value!);
    return model;
  };
}

// POST /v3/sessions and GET /v3/sessions/<id>: one endpoint for every session type. Retopology has its
// module, image_to_3d and image_to_kit theirs (generation.ts); this routes by type on create, by id on read.
import type { EngineContext } from '../context.ts';
import type { Handlers } from '../router.ts';
import { generationHandlers } from './generation.ts';
import { retopologyHandlers } from './retopology.ts';

export function v3Handlers(s: EngineContext): Pick<Handlers, 'createRetopology' | 'getV3Session'> {
  const retopology = retopologyHandlers(s);
  const generation = generationHandlers(s);
  return {
    createRetopology: (call) => {
      const { body } = call;
      return body.type === 'retopology'
        ? retopology.createRetopology({ ...call, body })
        : generation.create({ ...call, body });
    },
    getV3Session: (call) =>
      generation.has(call.params.session_id!) ? generation.get(call) : retopology.getV3Session(call),
  };
}

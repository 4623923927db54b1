// Text-to-image sessions and the styles they can use.
import { output, type Output } from '../artifacts.ts';
import type { Services } from '../context.ts';
import { charge } from '../credits.ts';
import { HttpError } from '../http.ts';
import { iso, newSessionCode, randomHex } from '../ids.ts';
import { phaseStatus, settle, type Phases, type Stepped, type StepName } from '../progress.ts';
import type { Handlers } from '../router.ts';
import { findOwned, refresh, wantsFailure } from './common.ts';

export interface TextToImageRecord extends Stepped {
  _id: string;
  session_code: string;
  user_id: string;
  prompt: string;
  style_id: string;
  status: string;
  fails: boolean;
  /** Test hook: a prompt holding `[status:word]` reports `word` while it runs (a status no client knows). */
  running_status?: string;
  image?: Output;
  created_at: string;
  updated_at: string;
}

export interface StyleRecord extends Stepped {
  _id: string;
  style_id: string;
  user_id: string;
  description: string;
  zip_url: string;
  is_public: boolean;
  status: string;
  fails: boolean;
  thumbnail?: Output;
  created_at: string;
  updated_at: string;
}

const TTI_PHASES: Phases = [
  [0.5, 'in_progress'],
  [1, 'processing'],
];
const STYLE_PHASES: Phases = [[1, 'training']];
/** The service returns a fixed guidance scale; it is not an input. */
const GUIDANCE = 7.5;
const IMAGE_SIZE = 512;
const THUMBNAIL_SIZE = 256;

type TextToImageEndpoints = 'createTextToImage' | 'getTextToImage' | 'createStyle';

export function textToImageHandlers(s: Services): Pick<Handlers, TextToImageEndpoints> {
  const present = (rec: TextToImageRecord, now: number) => ({
    _id: rec._id,
    session_code: rec.session_code,
    style_id: rec.style_id,
    prompt: rec.prompt,
    guidance: GUIDANCE,
    user_id: rec.user_id,
    image_url: s.files.url(rec.image, now),
    type: 'manual',
    status: rec.step ? (rec.running_status ?? phaseStatus(TTI_PHASES, s.clock.fraction(rec.step, now))) : rec.status,
    is_deleted: false,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  });

  return {
    async createTextToImage({ userId, now, body }) {
      const style_id = body.style_id ?? '';
      if (style_id !== '') await requireUsableStyle(s, style_id, userId, now);
      charge(s, userId, 'createTextToImage');
      const code = newSessionCode();
      const rec: TextToImageRecord = {
        _id: randomHex(),
        session_code: code,
        user_id: userId,
        prompt: body.prompt,
        style_id,
        status: 'in_progress',
        fails: wantsFailure(body.prompt),
        ...runningStatusOf(body.prompt),
        step: { name: 'tti', startedAt: now },
        created_at: iso(now),
        updated_at: iso(now),
      };
      s.state.textToImage[code] = rec;
      await s.save();
      return present(rec, now);
    },

    async getTextToImage({ userId, now, params }) {
      const rec = findOwned(s.state.textToImage, params.session_code!, userId);
      await refresh(s, () => settle(rec, s.clock, now, finishTextToImage), () => [rec.image]);
      return present(rec, now);
    },

    async createStyle({ userId, now, body }) {
      charge(s, userId, 'createStyle');
      const rec: StyleRecord = {
        _id: randomHex(),
        style_id: `STYLE_${randomHex()}`,
        user_id: userId,
        description: body.description,
        zip_url: body.zip_url,
        is_public: body.is_public ?? false,
        status: 'training',
        fails: wantsFailure(body.zip_url),
        step: { name: 'style', startedAt: now },
        created_at: iso(now),
        updated_at: iso(now),
      };
      s.state.styles[rec.style_id] = rec;
      await s.save();
      return presentStyle(s, rec, now);
    },
  };
}

function runningStatusOf(prompt: string): { running_status?: string } {
  const match = /\[status:([a-z0-9_]+)\]/i.exec(prompt);
  return match ? { running_status: match[1]! } : {};
}

function finishTextToImage(rec: TextToImageRecord, _step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  rec.status = rec.fails ? 'failed' : 'completed';
  if (!rec.fails) rec.image = output(rec.session_code, 'image', { type: 'image', seed: `${rec.prompt}\n${rec.style_id}`, size: IMAGE_SIZE });
}

/** A trained style gets a thumbnail drawn from its description. */
function finishStyle(rec: StyleRecord, _step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  rec.status = rec.fails ? 'failed' : 'completed';
  if (!rec.fails) rec.thumbnail = output(rec.style_id, 'thumbnail', { type: 'image', seed: rec.description, size: THUMBNAIL_SIZE });
}

function presentStyle(s: Services, rec: StyleRecord, now: number) {
  return {
    _id: rec._id,
    description: rec.description,
    user_id: rec.user_id,
    style_id: rec.style_id,
    image_url: s.files.url(rec.thumbnail, now),
    zip_url: rec.zip_url,
    is_public: rec.is_public,
    status: rec.step ? phaseStatus(STYLE_PHASES, s.clock.fraction(rec.step, now)) : rec.status,
    is_deleted: false,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  };
}

/** A style is usable by its owner (or anyone when public) once its training completed. */
async function requireUsableStyle(s: Services, styleId: string, userId: string, now: number): Promise<void> {
  const style = Object.hasOwn(s.state.styles, styleId) ? s.state.styles[styleId] : undefined;
  if (style === undefined || (style.user_id !== userId && !style.is_public)) {
    throw new HttpError(400, `style_id: there is no style ${styleId}; create one with POST /tti-styles`);
  }
  await refresh(s, () => settle(style, s.clock, now, finishStyle), () => [style.thumbnail]);
  const status = presentStyle(s, style, now).status;
  if (status !== 'completed') {
    throw new HttpError(400, `style_id: style ${styleId} cannot be used while its status is ${status}; wait until its training completed`);
  }
}

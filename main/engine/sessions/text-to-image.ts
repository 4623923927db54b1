// Text-to-image sessions and the styles they can use.
import { output, type Output } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { charge } from '../credits.ts';
import { HttpError } from '../http.ts';
import { createdAt, iso, newSessionCode, randomHex } from '../ids.ts';
import type { Rgb } from '../picture/words.ts';
import { phaseStatus, settle, type Phases, type Stepped, type StepName } from '../progress.ts';
import type { Handlers } from '../router.ts';
import { findOwned, inputGate, type InputRef, keepNew, refresh } from './common.ts';
import { faultOfStart, withEndFaults } from './faults.ts';

export interface TextToImageRecord extends Stepped {
  _id: string;
  session_code: string;
  user_id: string;
  prompt: string;
  style_id: string;
  status: string;
  fails: boolean;
  /** Reported while it runs, when a session-status fault rule says so (a status no client knows). */
  running_status?: string;
  /** Created with a style still training: the session waits (no step, status processing) until it is trained. */
  awaits_style?: boolean;
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
  /** The training zip, read and checked once the style is created. */
  zip?: InputRef;
  /** Why the zip could not be used (the training failed). */
  input_error?: string;
  is_public: boolean;
  status: string;
  fails: boolean;
  /** Reported while it trains, when a session-status fault rule says so. */
  running_status?: string;
  thumbnail?: Output;
  /** The colours of the zip's images, as read when a picture of this style was drawn by an older engine. */
  palette?: Rgb[];
  created_at: string;
  updated_at: string;
}

/** `processing` from creation to the end, as the service answers (the seed also allows `in_progress`; the official SDK knows only `processing`). */
const TTI_PHASES: Phases = [[1, 'processing']];
const STYLE_PHASES: Phases = [[1, 'training']];
/** The service returns a fixed guidance scale; it is not an input. */
const GUIDANCE = 7.5;
const IMAGE_SIZE = 512;
const THUMBNAIL_SIZE = 256;

type TextToImageEndpoints = 'createTextToImage' | 'getTextToImage' | 'createStyle';

export function textToImageHandlers(s: EngineContext): Pick<Handlers, TextToImageEndpoints> {
  const present = (rec: TextToImageRecord, now: number) => ({
    _id: rec._id,
    session_code: rec.session_code,
    style_id: rec.style_id,
    prompt: rec.prompt,
    guidance: GUIDANCE,
    user_id: rec.user_id,
    image_url: s.files.url(rec.image, now),
    type: 'manual',
    status:
      rec.step || rec.awaits_style
        ? (rec.running_status ?? phaseStatus(TTI_PHASES, rec.step ? s.clock.fraction(rec.step, now) : 0))
        : rec.status,
    is_deleted: false,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  });

  return {
    // An empty style_id means no style. A style still training is accepted: the session waits for it.
    async createTextToImage({ userId, now, body }) {
      const style_id = body.style_id ?? '';
      const style = style_id === '' ? undefined : await usableStyle(s, style_id, userId, now);
      const awaits = style !== undefined && style.step !== undefined;
      charge(s, userId, 'createTextToImage');
      const code = newSessionCode();
      const rec: TextToImageRecord = {
        _id: randomHex(),
        session_code: code,
        user_id: userId,
        prompt: body.prompt,
        style_id,
        status: 'processing',
        ...faultOfStart(s, 'createTextToImage'),
        ...(awaits ? { awaits_style: true } : { step: { name: 'tti' as const, startedAt: now } }),
        ...createdAt(now),
      };
      await keepNew(s, s.state.textToImage, code, rec);
      return present(rec, now);
    },

    async getTextToImage({ userId, now, params }) {
      const rec = findOwned(s.state.textToImage, params.session_code!, userId);
      await refresh(
        s,
        // a session waiting for its style settles the style; a finished one reads the style's palette (kept in it)
        () =>
          rec.style_id !== '' && Object.hasOwn(s.state.styles, rec.style_id)
            ? [rec, s.state.styles[rec.style_id]!]
            : [rec],
        () => {
          const started = rec.awaits_style === true && startAfterStyle(s, rec, now);
          return (
            settle(
              rec,
              s.clock,
              now,
              withEndFaults(s, (r) => r.session_code, finishTextToImage(s)),
            ) || started
          );
        },
        () => [rec.image],
      );
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
        ...faultOfStart(s, 'createStyle'),
        step: { name: 'style', startedAt: now },
        ...createdAt(now),
      };
      rec.zip = { url: body.zip_url };
      s.inputs.read(rec.zip, 'style-zip', `${rec.style_id}/training`);
      await keepNew(s, s.state.styles, rec.style_id, rec);
      return presentStyle(s, rec, now);
    },
  };
}

/** The picture is drawn from the prompt's words, in the colours of its style's zip when it has a style. */
const finishTextToImage =
  (s: EngineContext) =>
  (rec: TextToImageRecord, _step: StepName, endedAt: number): void => {
    rec.updated_at = iso(endedAt);
    rec.status = rec.fails ? 'failed' : 'completed';
    if (rec.fails) return;
    const style = rec.style_id === '' ? undefined : s.state.styles[rec.style_id];
    rec.image = output(rec.session_code, 'image', {
      type: 'prompt-image',
      prompt: rec.prompt,
      ...styleColours(style),
      size: IMAGE_SIZE,
    });
  };

/**
 * Where a picture of a style takes its colours: the style's stored zip, whose palette the worker making the picture
 * reads (artifacts.ts; never this thread), or the palette an older engine kept; none without a style or a stored zip.
 */
function styleColours(style: StyleRecord | undefined): { palette: Rgb[]; styleZip?: string } {
  if (style?.palette !== undefined) return { palette: style.palette };
  const key = style?.zip?.file?.key;
  return key === undefined ? { palette: [] } : { palette: [], styleZip: key };
}

/** A style whose zip cannot be used ends its training failed, with why. */
function failStyleOnInput(rec: StyleRecord, message: string, at: number): void {
  rec.status = 'failed';
  rec.input_error = message;
  rec.updated_at = iso(at);
}

/** A trained style gets a thumbnail drawn from its description, in the colours of its zip. */
const finishStyle = (rec: StyleRecord, _step: StepName, endedAt: number): void => {
  rec.updated_at = iso(endedAt);
  rec.status = rec.fails ? 'failed' : 'completed';
  if (!rec.fails)
    rec.thumbnail = output(rec.style_id, 'thumbnail', {
      type: 'prompt-image',
      prompt: rec.description,
      ...styleColours(rec),
      size: THUMBNAIL_SIZE,
    });
};

function presentStyle(s: EngineContext, rec: StyleRecord, now: number) {
  return {
    _id: rec._id,
    description: rec.description,
    user_id: rec.user_id,
    style_id: rec.style_id,
    image_url: s.files.url(rec.thumbnail, now),
    zip_url: rec.zip_url,
    ...(rec.input_error !== undefined && rec.step === undefined && { error: rec.input_error }),
    is_public: rec.is_public,
    status: rec.step ? (rec.running_status ?? phaseStatus(STYLE_PHASES, s.clock.fraction(rec.step, now))) : rec.status,
    is_deleted: false,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  };
}

/** The style of a create, trained up to `now`: its owner's (or a public one), trained, training, or 400. */
async function usableStyle(s: EngineContext, styleId: string, userId: string, now: number): Promise<StyleRecord> {
  const style = Object.hasOwn(s.state.styles, styleId) ? s.state.styles[styleId] : undefined;
  if (style === undefined || (style.user_id !== userId && !style.is_public)) {
    throw new HttpError(
      400,
      `style_id: there is no style ${styleId}; create one with POST /tti-styles, or send "" for no style`,
    );
  }
  await settleStyle(s, style, now);
  if (style.step === undefined && style.status !== 'completed') {
    throw new HttpError(
      400,
      `style_id: style ${styleId} cannot be used: its training ended ${style.status}; create the style again with POST /tti-styles`,
    );
  }
  return style;
}

/** A style's training moved on to `now`: failed on its zip, or its steps settled (ending faults applied). */
const advanceStyle = (s: EngineContext, style: StyleRecord, now: number) =>
  inputGate(style, style.zip, failStyleOnInput) ??
  settle(
    style,
    s.clock,
    now,
    withEndFaults(s, (r) => r.style_id, finishStyle),
  );

const settleStyle = (s: EngineContext, style: StyleRecord, now: number) =>
  refresh(
    s,
    () => [style],
    () => advanceStyle(s, style, now),
    () => [style.thumbnail],
  );

/**
 * A session waiting for its style starts once the style is trained, at the time its training ended (so the
 * image comes as late as the training made it); a style whose training failed fails the session.
 */
function startAfterStyle(s: EngineContext, rec: TextToImageRecord, now: number): boolean {
  const style = s.state.styles[rec.style_id]!;
  advanceStyle(s, style, now);
  s.files.register([style.thumbnail]);
  if (style.step !== undefined) return false;
  delete rec.awaits_style;
  if (style.status === 'completed') {
    rec.step = { name: 'tti', startedAt: Math.max(Date.parse(rec.created_at), Date.parse(style.updated_at)) };
  } else {
    rec.status = 'failed';
    rec.updated_at = style.updated_at;
  }
  return true;
}

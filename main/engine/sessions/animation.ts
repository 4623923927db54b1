// Mesh animation: the upload of an FBX (or a zip of FBX files), the session's rig, render and animation
// library, and text-prompted animations.
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { type Output } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { charge } from '../credits.ts';
import { jointPositions } from '../figure.ts';
import { HttpError } from '../http.ts';
import { createdAt, iso, newSessionCode, randomHex } from '../ids.ts';
import { receiveFile } from '../multipart.ts';
import { phaseStatus, settle, type Phases, type StepName } from '../progress.ts';
import type { Handlers } from '../router.ts';
import { chooseMotion, describeCatalogue, isChoice, playedAs } from '../motions/match.ts';
import { findOwned, inputGate, inputUrl, keepNew, refresh, type InputRef } from './common.ts';
import { errorText } from './error-text.ts';
import { faultOfStart, withEndFaults } from './faults.ts';
import { judgeUpload } from '../character/judge.ts';
import { makeCharacterFilesOffThread } from '../work/character.ts';
import { rigUploadedMesh } from '../rigging/at-upload.ts';
import { imageTo3dSessionOf } from './animation-source.ts';
import { failOnInput, finishPrompt, finishSessionOutputs, RENDER_SIZE, THUMBNAIL_SIZE } from './animation-files.ts';
import type { AnimationRecord } from './animation-record.ts';
import { PoolClosed } from '../../work/pool.ts';
import { describeInput } from '../inputs.ts';
import { isAsciiFbxStart, signatureOf } from '../../../shared/file-signature.ts';

const PHASES: Phases = [
  [0.4, 'init_processing'],
  [0.5, 'init_done'],
  [1, 'predefined_processing'],
];
/** The share of the session's step after which its mesh is initialised (status init_done): texts can be animated. */
const READY_AT = 0.4;
const LIBRARY = ['Idle', 'Walk', 'Run', 'Jump', 'Wave', 'Sit'];
const MAX_TEXT_LENGTH = 300;
const MAX_UPLOAD_BYTES = 4 * 2 ** 30;

type AnimationEndpoints = 'uploadAnimationMesh' | 'submitTextAnimations' | 'getAnimation' | 'listAnimations';

export function animationHandlers(s: EngineContext): Pick<Handlers, AnimationEndpoints> {
  /** A session bound to fail never gets its mesh ready: it shows init_processing until it ends init_failed. */
  const phase = (rec: AnimationRecord, now: number) =>
    rec.step ? (rec.fails ? 'init_processing' : phaseStatus(PHASES, s.clock.fraction(rec.step, now))) : rec.status;
  const status = (rec: AnimationRecord, now: number) =>
    rec.step && rec.running_status !== undefined ? rec.running_status : phase(rec, now);

  /** When the session's mesh was (or will be) ready for text animations; undefined if it never will be (or not known yet). */
  function readyAt(rec: AnimationRecord): number | undefined {
    if (rec.character !== undefined && rec.character.kind !== 'figure' && rec.character.made === undefined)
      return undefined;
    if (rec.step)
      return rec.fails ? undefined : rec.step.startedAt + READY_AT * (s.clock.end(rec.step) - rec.step.startedAt);
    return rec.status === 'predefined_done' ? Date.parse(rec.created_at) : undefined;
  }

  /** Queued texts start once the mesh is ready, at the time it became ready (or when they came, if later). */
  function startQueued(rec: AnimationRecord, now: number): boolean {
    const ready = readyAt(rec);
    if (ready === undefined || ready > now) return false;
    let changed = false;
    for (const p of rec.prompts) {
      if (p.status !== 'text_queued') continue;
      p.status = 'text_processing';
      p.step = { name: 'prompt', startedAt: Math.max(ready, Date.parse(p.created_at)) };
      changed = true;
    }
    return changed;
  }

  /** A failed session fails its texts that were queued or still running when it ended. */
  function finishSession(rec: AnimationRecord, _step: StepName, endedAt: number): void {
    finishSessionOutputs(rec, endedAt, s.animationFiles);
    if (rec.status !== 'init_failed') return;
    for (const p of rec.prompts) {
      if (p.status === 'text_queued' || (p.step && s.clock.end(p.step) > endedAt)) {
        delete p.step;
        p.status = 'text_failed';
        p.updated_at = iso(endedAt);
      }
    }
  }

  async function read(code: string, userId: string, now: number): Promise<AnimationRecord> {
    const rec = findOwned(s.state.animations, code, userId);
    await refresh(
      s,
      () => [rec],
      () => {
        let changed = startQueued(rec, now);
        changed =
          (inputGate(rec, rec.source, failOnInput) ??
            characterGate(rec) ??
            settle(
              rec,
              s.clock,
              now,
              withEndFaults(s, (r) => r.session_code, finishSession),
            )) ||
          changed;
        return rec.prompts.reduce(
          (any, p) =>
            settle(p, s.clock, now, (prompt, _step, at) => finishPrompt(rec, prompt, at, s.animationFiles)) || any,
          changed,
        );
      },
      () => [
        ...Object.values(rec.outputs),
        ...rec.library.map((a) => a.file),
        ...rec.prompts.flatMap((p) => [p.mesh, p.usdz]),
      ],
    );
    return rec;
  }

  /** Characters being read (by session code), each once. */
  const reading = new Map<string, Promise<void>>();

  /**
   * What comes before settling a running session whose mesh has been stored: judging and reading its
   * character (in the background, once). Undefined when the steps settle as usual, else whether the record
   * changed (see inputGate): a character that cannot be animated fails the session with why.
   */
  function characterGate(rec: AnimationRecord): boolean | undefined {
    const file = rec.source.file;
    if (rec.step === undefined || rec.fails || file === undefined) return undefined;
    const character = (rec.character ??= {});
    if (character.kind === 'figure' || character.made !== undefined) return undefined;
    if (character.error !== undefined) {
      delete rec.step;
      failOnInput(rec, character.error, Date.now());
      return true;
    }
    startReading(rec);
    return false;
  }

  function startReading(rec: AnimationRecord): void {
    const code = rec.session_code;
    const file = rec.source.file;
    if (reading.has(code) || file === undefined) return;
    const character = (rec.character ??= {});
    const what = rec.source.url === undefined ? 'The uploaded mesh' : describeInput(rec.source, 'animation-mesh');
    const format = file.key.endsWith('.zip') ? 'zip' : 'fbx';
    const path = s.files.path(file.key);
    // The one place a character's error becomes part of the record: quoting at most a few hundred characters.
    const refuse = (reason: string) => void (character.error = errorText(`${what} ${reason}.`));
    const job = (async () => {
      if (character.kind === undefined) {
        const judged = await judgeUpload(path, format);
        if (judged.kind === 'refused') refuse(judged.reason);
        else character.kind = judged.kind;
        if (judged.kind !== 'refused' && judged.entry !== undefined) character.entry = judged.entry;
      }
      if ((character.kind === 'character' || character.kind === 'mesh') && character.made === undefined) {
        const made = await makeCharacterFilesOffThread(s.files, {
          path,
          format,
          ...(character.entry === undefined ? {} : { entry: character.entry }),
          owner: code,
          renderSize: RENDER_SIZE,
          thumbnailSize: THUMBNAIL_SIZE,
        });
        if ('error' in made) refuse(made.error);
        else character.made = made;
      }
    })()
      .catch((error: unknown) => {
        if (error instanceof PoolClosed) throw error; // the engine stopped: read again at its next start
        refuse(`could not be read (${error instanceof Error ? error.message : String(error)})`);
      })
      .then(() => s.save(rec))
      .catch(() => undefined) // a failed save is retried by the next change
      .finally(() => reading.delete(code));
    reading.set(code, job);
  }

  const handlers: Pick<Handlers, AnimationEndpoints> = {
    async uploadAnimationMesh({ userId, now, body, req }) {
      const code = newSessionCode();
      const received = body === undefined ? await receiveUpload(s, req, code) : undefined;
      const source: InputRef = received?.source ?? { url: body!.mesh_url };
      if (received !== undefined) {
        // Judged from its bytes as it arrives: a file that cannot be animated is refused now; a mesh with no
        // skeleton is rigged when read (a shape that is not a standing humanoid then fails the session with why).
        const judged = await judgeUpload(s.files.path(received.source.file!.key), received.format).catch(
          (error: unknown) => ({
            kind: 'refused' as const,
            reason: `could not be read (${error instanceof Error ? error.message : String(error)})`,
          }),
        );
        if (judged.kind === 'refused') {
          await rm(s.files.path(received.source.file!.key), { force: true });
          throw new HttpError(400, errorText(`file: ${received.filename || 'the upload'} ${judged.reason}.`));
        }
        const entry = judged.entry !== undefined ? { entry: judged.entry } : {};
        received.character = { kind: judged.kind, ...entry };
        if (judged.kind === 'mesh') {
          const file = s.files.path(received.source.file!.key);
          const work = { path: file, format: received.format, ...entry, owner: code, renderSize: RENDER_SIZE };
          const rigged = await rigUploadedMesh(s.files, { ...work, thumbnailSize: THUMBNAIL_SIZE });
          if ('reason' in rigged) {
            await rm(file, { force: true });
            throw new HttpError(400, `file: ${received.filename || 'the upload'} ${rigged.reason}.`);
          }
          received.character.made = rigged.made;
        }
      }
      try {
        charge(s, userId, 'uploadAnimationMesh');
      } catch (error) {
        if (source.file !== undefined) await rm(s.files.path(source.file.key), { force: true });
        throw error;
      }
      const rec: AnimationRecord = {
        _id: randomHex(),
        session_code: code,
        user_id: userId,
        source,
        image_to_3d_session_code: imageTo3dSessionOf(s, source.url, userId),
        status: 'init_processing',
        ...faultOfStart(s, 'uploadAnimationMesh'),
        step: { name: 'animation', startedAt: now },
        outputs: {},
        library: LIBRARY.map((label) => ({ label, _id: randomHex() })),
        prompts: [],
        character: received?.character ?? {},
        ...createdAt(now),
      };
      s.inputs.read(rec.source, 'animation-mesh', `${code}/upload`);
      await keepNew(s, s.state.animations, code, rec);
      if (received !== undefined && !rec.fails) startReading(rec);
      return { session_code: code, mesh_url: inputUrl(s, source, now), status: status(rec, now) };
    },

    // Texts sent before the mesh is ready wait for it (each answer says so); a failure is reported per text.
    async submitTextAnimations({ userId, now, body }) {
      const rec = await read(body.session_code, userId, now);
      const ready = readyAt(rec);
      const responses = body.texts.map((text) => {
        if (text.length > MAX_TEXT_LENGTH) {
          return {
            text,
            message: `The text is too long: ${text.length} characters, at most ${MAX_TEXT_LENGTH}.`,
            isError: true,
          };
        }
        if (ready === undefined && rec.step === undefined) {
          return {
            text,
            message: `Session ${rec.session_code} could not prepare its mesh (status ${rec.status}): upload the mesh again to animate it.`,
            isError: true,
          };
        }
        const match = chooseMotion(text);
        if (!isChoice(match)) {
          return {
            text,
            message: `Cannot animate "${text}": ${match.refused}. The local engine does not animate any text as the service's AI does: it plays the closest of its motions (motion capture from the CMU library and procedural clips). Describe one, e.g. "walk forward", "dance", "pick up a box" or "wave with the left hand"; kinds of motion: ${describeCatalogue()}.`,
            isError: true,
          };
        }
        const fault = faultOfStart(s, 'submitTextAnimations', rec.session_code);
        if (fault.fails) {
          return {
            text,
            message: 'The animation model could not animate this text (a session-failure fault rule of the engine).',
            isError: true,
          };
        }
        const waits = ready === undefined || ready > now;
        rec.prompts.push({
          _id: randomHex(),
          session_code: rec.session_code,
          text,
          status: waits ? 'text_queued' : 'text_processing',
          ...(waits ? {} : { step: { name: 'prompt', startedAt: now } }),
          ...(fault.running_status === undefined ? {} : { running_status: fault.running_status }),
          ...createdAt(now),
        });
        return {
          text,
          message: waits
            ? `Animation queued: it starts when the mesh is ready (status init_done); ${playedAs(match, text)}.`
            : `Animation queued; ${playedAs(match, text)}.`,
          isError: false,
        };
      });
      await s.save(rec);
      return { responses };
    },

    async getAnimation({ userId, now, params }) {
      const rec = await read(params.session_code!, userId, now);
      const url = (file: Output | undefined) => s.files.url(file, now);
      const done = rec.status === 'predefined_done' && rec.step === undefined;
      return {
        _id: rec._id,
        session_code: rec.session_code,
        image_to_3d_session_code: rec.image_to_3d_session_code ?? '',
        render_url: url(rec.outputs.render_url),
        mesh_url: url(rec.outputs.mesh_url),
        thumbnail: url(rec.outputs.thumbnail),
        animation_url: url(rec.outputs.animation_url),
        status: status(rec, now),
        ...(rec.input_error !== undefined && rec.step === undefined && { error: rec.input_error }),
        prompts: rec.prompts.map((p) => ({
          _id: p._id,
          session_code: p.session_code,
          text: p.text,
          mesh_url: url(p.mesh),
          usdz_url: url(p.usdz),
          status: p.step
            ? (p.running_status ?? 'text_processing')
            : p.status === 'text_queued'
              ? (p.running_status ?? 'text_processing')
              : p.status,
          created_at: p.created_at,
          updated_at: p.updated_at,
        })),
        animation_library: done ? rec.library.map((a) => ({ label: a.label, url: url(a.file), _id: a._id })) : [],
        animation_joint_dict: done
          ? (rec.character?.made?.joints ?? jointPositions(rec.session_code, RENDER_SIZE))
          : {},
        created_at: rec.created_at,
        updated_at: rec.updated_at,
      };
    },

    // As the image-to-3D list: `page` from 1 (0 is the first page too), newest first; the vendor's answer has no `skip`.
    async listAnimations({ userId, now, query }) {
      const { limit, page } = query;
      const mine = Object.values(s.state.animations)
        .filter((rec) => rec.user_id === userId)
        .reverse();
      const skip = (Math.max(page, 1) - 1) * limit;
      const results = [];
      for (const rec of mine.slice(skip, skip + limit)) {
        results.push(await handlers.getAnimation({ userId, now, params: { session_code: rec.session_code } } as never));
      }
      return { results, page, limit, totalPages: Math.ceil(mine.length / limit), totalResults: mine.length };
    },
  };
  return handlers;
}

interface Received {
  source: InputRef;
  filename: string;
  format: 'fbx' | 'zip';
  character?: AnimationRecord['character'];
}

/** Streams the multipart `file` to disk and accepts binary FBX, ASCII FBX or zip content only. */
async function receiveUpload(s: EngineContext, req: IncomingMessage, code: string): Promise<Received> {
  const temp = await s.files.tempPath();
  try {
    const received = await receiveFile(req, 'file', temp, MAX_UPLOAD_BYTES);
    if (received === undefined) {
      throw new HttpError(
        400,
        'file: is required: send the mesh in the multipart field "file", or a JSON body with mesh_url',
      );
    }
    const format = meshFormat(received.head);
    if (format === undefined) {
      throw new HttpError(
        400,
        `file: must be a binary FBX (starting with "Kaydara FBX Binary"), an ASCII FBX (starting with "; FBX") or a zip of FBX files; ${received.filename || 'the upload'} is none of these`,
      );
    }
    const file: Output = { key: `${code}/upload.${format}`, recipe: { type: 'input' } };
    await s.files.adopt(file.key, temp);
    return { source: { file }, filename: received.filename, format };
  } finally {
    await rm(temp, { force: true });
  }
}

/** `glb` makes the engine deliver an uploaded character's animation files as GLB; by default they are FBX, as the service delivers them. */
export const ANIMATION_FILES_ENV = 'ASSET_STUDIO_ENGINE_ANIMATION_FILES';

function meshFormat(head: Buffer): 'fbx' | 'zip' | undefined {
  const signed = signatureOf(head); // a binary FBX or a zip by their first bytes (shared/file-signature.ts)
  if (signed === 'fbx' || signed === 'zip') return signed;
  return isAsciiFbxStart(head) ? 'fbx' : undefined;
}

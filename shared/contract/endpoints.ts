// The 16 endpoints of the service (plus the older create variant) as one table.
// The API client, the embedded engine and the CLI are all driven by it, so they cannot drift apart.
import * as z from 'zod';
import {
  emptyData,
  createImageTo3dLegacyRequest,
  createImageTo3dRequest,
  get3dJobAck,
  imageTo3dList,
  imageTo3dSession,
  imageTo3dSessionOlder,
  listImageTo3dQuery,
  meshAvailability,
  previewRequest,
  refineRequest,
  submitSpinRequest,
} from './image-to-3d.ts';
import {
  animationList,
  animationSession,
  textMultiRequest,
  textMultiResult,
  uploadMeshUrlRequest,
  uploadResult,
} from './animation.ts';
import { createStyleRequest, createTextToImageRequest, textToImageSession, textToImageStyle } from './text-to-image.ts';
import { createRetopologyRequest, createV3SessionRequest, v3Session } from './v3.ts';

export interface EndpointDef {
  method: 'GET' | 'POST';
  /** Path with `:name` placeholders for session codes / ids. */
  path: string;
  /** Which address the request goes to: the service base or the legacy base (older variants). */
  base: 'base' | 'legacy';
  /** false for /v3/sessions: the object is returned bare. */
  envelope: boolean;
  /** HTTP status of success. */
  status: number;
  /** Envelope message of success. */
  message: string;
  /** Does the request create or change something at the service (and so must never be retried blindly)? */
  mutating: boolean;
  body?: z.ZodType;
  /**
   * What the embedded engine accepts at this address when it is more than `body`, which is what the app
   * sends (for POST /v3/sessions: the other session types third-party scripts create).
   */
  acceptedBody?: z.ZodType;
  query?: z.ZodType;
  /** The file upload goes as multipart form data (field `file`); the body schema then covers the URL form. */
  multipart?: boolean;
  data: z.ZodType;
  summary: string;
}

export const ENDPOINTS = {
  createImageTo3d: {
    method: 'POST',
    path: '/image-to-3d-sessions',
    base: 'base',
    envelope: true,
    status: 201,
    message: 'Created',
    mutating: true,
    body: createImageTo3dRequest,
    data: imageTo3dSession,
    summary: 'Create an image-to-3D session',
  },
  createImageTo3dLegacy: {
    method: 'POST',
    path: '/image-to-3d-sessions',
    base: 'legacy',
    envelope: true,
    status: 201,
    message: 'Created',
    mutating: true,
    body: createImageTo3dLegacyRequest,
    data: imageTo3dSessionOlder,
    summary: 'Create an image-to-3D session (older step-by-step variant)',
  },
  submitSpin: {
    method: 'POST',
    path: '/image-to-3d-sessions/submit-spin-jobs',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Success',
    mutating: true,
    body: submitSpinRequest,
    data: emptyData,
    summary: 'Regenerate the spin view of a session',
  },
  preview: {
    method: 'POST',
    path: '/image-to-3d-sessions/get-3d/preview/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Generating Mesh',
    mutating: true,
    body: previewRequest,
    data: get3dJobAck,
    summary: 'Request the preview mesh',
  },
  refine: {
    method: 'POST',
    path: '/image-to-3d-sessions/get-3d/refine/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Generating Mesh',
    mutating: true,
    body: refineRequest,
    data: get3dJobAck,
    summary: 'Request the refined mesh',
  },
  getImageTo3d: {
    method: 'GET',
    path: '/image-to-3d-sessions/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    data: imageTo3dSession,
    summary: 'Read an image-to-3D session',
  },
  listImageTo3d: {
    method: 'GET',
    path: '/image-to-3d-sessions',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    query: listImageTo3dQuery,
    data: imageTo3dList,
    summary: 'List image-to-3D sessions',
  },
  getMesh: {
    method: 'GET',
    path: '/image-to-3d-sessions/get-mesh/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    data: z.array(meshAvailability),
    summary: 'Check which meshes of a session are available',
  },
  createRetopology: {
    method: 'POST',
    path: '/v3/sessions',
    base: 'base',
    envelope: false,
    status: 201,
    message: '',
    mutating: true,
    body: createRetopologyRequest,
    acceptedBody: createV3SessionRequest,
    data: v3Session,
    summary: 'Create a retopology session',
  },
  getV3Session: {
    method: 'GET',
    path: '/v3/sessions/:session_id',
    base: 'base',
    envelope: false,
    status: 200,
    message: '',
    mutating: false,
    data: v3Session,
    summary: 'Read a generic (v3) session',
  },
  createTextToImage: {
    method: 'POST',
    path: '/tti-sessions',
    base: 'base',
    envelope: true,
    status: 201,
    message: 'Created',
    mutating: true,
    body: createTextToImageRequest,
    data: textToImageSession,
    summary: 'Create a text-to-image session',
  },
  getTextToImage: {
    method: 'GET',
    path: '/tti-sessions/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    data: textToImageSession,
    summary: 'Read a text-to-image session',
  },
  createStyle: {
    method: 'POST',
    path: '/tti-styles',
    base: 'base',
    envelope: true,
    status: 201,
    message: 'Created',
    mutating: true,
    body: createStyleRequest,
    data: textToImageStyle,
    summary: 'Create and train a text-to-image style',
  },
  uploadAnimationMesh: {
    method: 'POST',
    path: '/mesh-animation/upload',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Success',
    mutating: true,
    body: uploadMeshUrlRequest,
    multipart: true,
    data: uploadResult,
    summary: 'Upload an FBX (or zip of FBX) for animation',
  },
  submitTextAnimations: {
    method: 'POST',
    path: '/mesh-animation/text-multi',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Success',
    mutating: true,
    body: textMultiRequest,
    data: textMultiResult,
    summary: 'Animate a mesh from text prompts',
  },
  getAnimation: {
    method: 'GET',
    path: '/mesh-animation/:session_code',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    data: animationSession,
    summary: 'Read a mesh animation session',
  },
  // The vendor's docs page "List User Sessions" of mesh animation: the same paging as the image-to-3D list.
  listAnimations: {
    method: 'GET',
    path: '/mesh-animation',
    base: 'base',
    envelope: true,
    status: 200,
    message: 'Retrieved',
    mutating: false,
    query: listImageTo3dQuery,
    data: animationList,
    summary: 'List mesh animation sessions',
  },
} as const satisfies Record<string, EndpointDef>;

export type EndpointId = keyof typeof ENDPOINTS;
export type EndpointData<E extends EndpointId> = z.output<(typeof ENDPOINTS)[E]['data']>;

/** `GET /image-to-3d-sessions/:session_code`: the label used in errors and logs (never a full URL). */
export function routeLabel(id: EndpointId): string {
  const def: EndpointDef = ENDPOINTS[id];
  return `${def.method} ${def.path}${def.base === 'legacy' ? ' (legacy)' : ''}`;
}

/** Fills `:name` placeholders; each value is URL-encoded. */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}

const paramNames = new Map<string, readonly string[]>();

/** Names of the `:name` placeholders of a path (computed once per path). */
export function pathParams(path: string): readonly string[] {
  let names = paramNames.get(path);
  if (!names) {
    names = [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
    paramNames.set(path, names);
  }
  return names;
}

// The service contract of SERVICE_API.md: schemas, types, the endpoint table and the lifecycle.
export * from './common.ts';
export * from './image-to-3d.ts';
export * from './image-to-3d-options.ts';
export * from './text-to-image.ts';
export * from './animation.ts';
export * from './v3.ts';
export * from './endpoints.ts';
export * from './lifecycle.ts';
export * from './issues.ts';

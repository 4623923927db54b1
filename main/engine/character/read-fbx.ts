// Reading an uploaded character's FBX: main/formats/fbx-read.ts (shared with the export, which makes a GLB of
// FBX clips from it). Its result has the shape of model.ts's CharacterModel.
export { FbxUnreadable, readFbxCharacter } from '../../formats/fbx-read.ts';

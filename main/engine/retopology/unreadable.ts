// Why an input mesh cannot be retopologised: `reason` completes "The input mesh <url> …" (see inputs.ts's
// describeInput), e.g. "holds no triangles (…): give a model with a triangle mesh".
import { ReasonError } from '../input-check.ts';

export class UnreadableMesh extends ReasonError {
  constructor(reason: string) {
    super(reason, 'UnreadableMesh');
  }
}

// The library: every job of this app (a page at a time, live through `job` events; an older-flow session is
// one entry with its steps), with pictures, names, rename, delete, filters and sorting, and the service's
// own list of sessions with paging. Works from the local database when the service is unreachable.
import { JobsList } from './library/jobs-list.tsx';
import { ServiceSessions } from './library/service-sessions.tsx';

export { JobRow } from './library/job-row.tsx';
export { Pager } from './library/pager.tsx';

export function Library() {
  return (
    <>
      <h1>Library</h1>
      <JobsList />
      <ServiceSessions />
    </>
  );
}

import { client } from '../../session.js';
import { FormDialog } from '../../components/form-dialog.js';
import { ServerFields, readServerFields } from '../../components/server-fields.js';
import type { ServerRecord } from './server-page.js';
import { useGame } from '../../games.js';

/** Changes a server's record; a running game keeps its ports and path until its next start. */
export function EditServer({
  server,
  onClose,
  onSaved,
}: {
  server: ServerRecord;
  onClose: () => void;
  onSaved: (server: ServerRecord) => void;
}) {
  return (
    <FormDialog
      title={`Edit ${server.name}`}
      submitLabel="Save"
      wide
      onClose={onClose}
      onSubmit={async (_, element) => onSaved(await client.servers.update(server.id, readServerFields(element)))}
    >
      <ServerFields initial={server} game={useGame(server.game_type)} />
    </FormDialog>
  );
}

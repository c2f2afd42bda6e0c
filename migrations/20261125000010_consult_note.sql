-- the note as the clinician sees and edits it on the consult page (the result form: template,
-- episodes with every field they carry, report, dictation, meeting, specialist sections), kept
-- with its consult so a reload restores it. it is medical data like the rest of the row: the
-- consult's expires_at and the purge_consults sweep take it with the consult.
alter table consults
    add column note          jsonb,
    add column note_saved_at timestamptz;

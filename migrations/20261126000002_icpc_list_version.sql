-- The version of the ICPC list in force. Processes keep the list and its match terms in memory
-- (`domain::icpc::catalogue`) and read this one row to know whether they are still current. Any
-- statement that changes icpc_codes (the seed, `api icpc-import`, an edit by hand) gives it a new
-- random value in the same transaction: random rather than counted, so that two databases never
-- share a version and one cache per process serves whichever database it is asked about.
create table icpc_list_version (
    only_row boolean primary key default true check (only_row),
    version  uuid not null default gen_random_uuid()
);
insert into icpc_list_version default values;

create function icpc_list_changed() returns trigger language plpgsql as $$
begin
    update icpc_list_version set version = gen_random_uuid();
    return null;
end
$$;

create trigger icpc_codes_changed after insert or update or delete or truncate on icpc_codes
    for each statement execute function icpc_list_changed();

import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Issue 40 (discovery.md DS2–DS6): one searchable row per agent and MCP server, with a weighted
 * `tsvector` and exact facets (`skill:…`, `tag:…`, `capability:…`, `input:…`, `output:…`,
 * `tool:…`), kept by triggers in the transaction of every change to an agent, its card, an MCP
 * server or its recorded tools; an MCP server gains the `visibility` an agent has (DS7).
 */
export class CreateDiscoveryEntries1765400000000 implements MigrationInterface {
  name = 'CreateDiscoveryEntries1765400000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.mcp_servers ADD COLUMN visibility text NOT NULL DEFAULT 'PRIVATE'
        CHECK (visibility IN ('PUBLIC', 'PRIVATE', 'INTERNAL'))`);
    await runner.query(`
      CREATE TABLE ${s}.discovery_entries (
        entry_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('AGENT', 'MCP_SERVER')),
        name text NOT NULL,
        description text,
        visibility text NOT NULL,
        document tsvector NOT NULL,
        facets text[] NOT NULL DEFAULT '{}',
        summary jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX discovery_entries_by_kind ON ${s}.discovery_entries (tenant_id, kind, name, entry_id)`,
    );
    await runner.query(
      `CREATE INDEX discovery_entries_document ON ${s}.discovery_entries USING gin (document)`,
    );
    await runner.query(
      `CREATE INDEX discovery_entries_facets ON ${s}.discovery_entries USING gin (facets)`,
    );
    await enableTenantRls(runner, `${s}.discovery_entries`);
    for (const statement of functions(s)) {
      await runner.query(statement);
    }
    await runner.query(`
      CREATE TRIGGER discovery_index AFTER INSERT OR DELETE
        OR UPDATE OF name, status, description, visibility, agent_card ON ${s}.agents
        FOR EACH ROW EXECUTE FUNCTION ${s}.discovery_index_agent()`);
    await runner.query(`
      CREATE TRIGGER discovery_index AFTER INSERT OR DELETE
        OR UPDATE OF name, description, visibility ON ${s}.mcp_servers
        FOR EACH ROW EXECUTE FUNCTION ${s}.discovery_index_mcp_server()`);
    await runner.query(`
      CREATE TRIGGER discovery_index AFTER INSERT OR DELETE OR UPDATE OF definition
        ON ${s}.mcp_tool_definitions
        FOR EACH ROW EXECUTE FUNCTION ${s}.discovery_index_mcp_tools()`);
    // The rows there already: an UPDATE that changes nothing fires the triggers once each.
    await runner.query(`UPDATE ${s}.agents SET name = name`);
    await runner.query(`UPDATE ${s}.mcp_servers SET name = name`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`DROP TRIGGER discovery_index ON ${s}.mcp_tool_definitions`);
    await runner.query(`DROP TRIGGER discovery_index ON ${s}.mcp_servers`);
    await runner.query(`DROP TRIGGER discovery_index ON ${s}.agents`);
    for (const fn of [
      'discovery_index_mcp_tools()',
      'discovery_index_mcp_server()',
      'discovery_index_agent()',
      'discovery_reindex_mcp_server(uuid)',
      'discovery_card_facets(jsonb)',
      'discovery_card_document(text, text, jsonb)',
      'discovery_array(jsonb)',
    ]) {
      await runner.query(`DROP FUNCTION ${s}.${fn}`);
    }
    await disableTenantRls(runner, `${s}.discovery_entries`);
    await runner.query(`DROP TABLE ${s}.discovery_entries`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN visibility`);
  }
}

/**
 * DS3: the weights. A: the entry's own name and its skills' tags (the author's own keywords);
 * B: skill names and ids, tool names; C: the
 * descriptions; D: the skills' examples. `discovery_card_document` and `discovery_card_facets`
 * take any A2A card, so a marketplace listing that exposes a card indexes the same way (DS9).
 */
function functions(s: string): string[] {
  return [
    `CREATE FUNCTION ${s}.discovery_array(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
       SELECT CASE WHEN jsonb_typeof(value) = 'array' THEN value ELSE '[]'::jsonb END $$`,
    `CREATE FUNCTION ${s}.discovery_card_document(name text, description text, card jsonb)
       RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
       WITH skill AS (
         SELECT x AS s FROM jsonb_array_elements(${s}.discovery_array(card -> 'skills')) x
          WHERE jsonb_typeof(x) = 'object')
       SELECT setweight(to_tsvector('english', concat_ws(' ', name, card ->> 'name', (
                SELECT string_agg(t, ' ') FROM skill,
                  jsonb_array_elements_text(${s}.discovery_array(s -> 'tags')) t))), 'A')
           || setweight(to_tsvector('english', coalesce((
                SELECT string_agg(concat_ws(' ', s ->> 'name', s ->> 'id'), ' ')
                  FROM skill), '')), 'B')
           || setweight(to_tsvector('english', concat_ws(' ', description, card ->> 'description',
                (SELECT string_agg(s ->> 'description', ' ') FROM skill))), 'C')
           || setweight(to_tsvector('english', coalesce((
                SELECT string_agg(e, ' ') FROM skill,
                  jsonb_array_elements_text(${s}.discovery_array(s -> 'examples')) e), '')), 'D')
     $$`,
    `CREATE FUNCTION ${s}.discovery_card_facets(card jsonb) RETURNS text[]
       LANGUAGE sql IMMUTABLE AS $$
       WITH skill AS (
         SELECT x AS s FROM jsonb_array_elements(${s}.discovery_array(card -> 'skills')) x
          WHERE jsonb_typeof(x) = 'object')
       SELECT coalesce(array_agg(DISTINCT f) FILTER (WHERE f IS NOT NULL), '{}') FROM (
         SELECT 'skill:' || lower(s ->> 'id') FROM skill
         UNION ALL SELECT 'skill:' || lower(s ->> 'name') FROM skill
         UNION ALL SELECT 'tag:' || lower(t) FROM skill,
           jsonb_array_elements_text(${s}.discovery_array(s -> 'tags')) t
         UNION ALL SELECT 'capability:' || lower(c.key)
           FROM jsonb_each(CASE WHEN jsonb_typeof(card -> 'capabilities') = 'object'
                                THEN card -> 'capabilities' ELSE '{}'::jsonb END) c
          WHERE c.value = 'true'::jsonb
         UNION ALL SELECT 'input:' || lower(m)
           FROM jsonb_array_elements_text(${s}.discovery_array(card -> 'defaultInputModes')) m
         UNION ALL SELECT 'input:' || lower(m) FROM skill,
           jsonb_array_elements_text(${s}.discovery_array(s -> 'inputModes')) m
         UNION ALL SELECT 'output:' || lower(m)
           FROM jsonb_array_elements_text(${s}.discovery_array(card -> 'defaultOutputModes')) m
         UNION ALL SELECT 'output:' || lower(m) FROM skill,
           jsonb_array_elements_text(${s}.discovery_array(s -> 'outputModes')) m
       ) AS facet(f) $$`,
    `CREATE FUNCTION ${s}.discovery_index_agent() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' OR NEW.status = 'DELETED' THEN
         DELETE FROM ${s}.discovery_entries WHERE entry_id = coalesce(NEW.id, OLD.id);
         RETURN NULL;
       END IF;
       INSERT INTO ${s}.discovery_entries AS e
              (entry_id, tenant_id, kind, name, description, visibility, document, facets, summary)
       VALUES (NEW.id, NEW.tenant_id, 'AGENT', NEW.name,
               coalesce(NEW.description, NEW.agent_card ->> 'description'), NEW.visibility,
               ${s}.discovery_card_document(NEW.name, NEW.description, NEW.agent_card),
               ${s}.discovery_card_facets(NEW.agent_card),
               jsonb_build_object('status', NEW.status,
                 'skills', coalesce((SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                     'id', x ->> 'id', 'name', x ->> 'name', 'tags', x -> 'tags')))
                   FROM jsonb_array_elements(${s}.discovery_array(NEW.agent_card -> 'skills')) x
                  WHERE jsonb_typeof(x) = 'object'), '[]'::jsonb),
                 'capabilities', NEW.agent_card -> 'capabilities',
                 'defaultInputModes', NEW.agent_card -> 'defaultInputModes',
                 'defaultOutputModes', NEW.agent_card -> 'defaultOutputModes'))
       ON CONFLICT (entry_id) DO UPDATE SET name = excluded.name,
          description = excluded.description, visibility = excluded.visibility,
          document = excluded.document, facets = excluded.facets, summary = excluded.summary,
          updated_at = now();
       RETURN NULL;
     END $$`,
    // DS4: a tool is to an MCP server what a skill is to an agent: its name is a `skill:` facet.
    `CREATE FUNCTION ${s}.discovery_reindex_mcp_server(server uuid) RETURNS void
       LANGUAGE sql AS $$
       INSERT INTO ${s}.discovery_entries AS e
              (entry_id, tenant_id, kind, name, description, visibility, document, facets, summary)
       SELECT m.id, m.tenant_id, 'MCP_SERVER', m.name, m.description, m.visibility,
              setweight(to_tsvector('english', m.name), 'A')
           || setweight(to_tsvector('english', coalesce(t.names, '')), 'B')
           || setweight(to_tsvector('english', concat_ws(' ', m.description, t.descriptions)), 'C'),
              coalesce(t.facets, '{}'),
              jsonb_build_object('tools', coalesce(t.tools, '[]'::jsonb), 'transport', m.transport)
         FROM ${s}.mcp_servers m
         LEFT JOIN LATERAL (
           SELECT string_agg(concat_ws(' ', d.name, d.definition ->> 'title',
                    d.definition #>> '{annotations,title}'), ' ') AS names,
                  string_agg(d.definition ->> 'description', ' ') AS descriptions,
                  jsonb_agg(d.name ORDER BY d.name) AS tools,
                  array_agg('skill:' || lower(d.name)) || array_agg('tool:' || lower(d.name))
                    || ARRAY['capability:tools'] || coalesce((
                      SELECT array_agg(DISTINCT 'capability:' || lower(h.key))
                        FROM ${s}.mcp_tool_definitions a,
                             jsonb_each(CASE WHEN jsonb_typeof(a.definition -> 'annotations') = 'object'
                                        THEN a.definition -> 'annotations' ELSE '{}'::jsonb END) h
                       WHERE a.tenant_id = m.tenant_id AND a.server_id = m.id
                         AND h.value = 'true'::jsonb), '{}') AS facets
             FROM ${s}.mcp_tool_definitions d
            WHERE d.tenant_id = m.tenant_id AND d.server_id = m.id
           HAVING count(*) > 0) t ON true
        WHERE m.id = server
       ON CONFLICT (entry_id) DO UPDATE SET name = excluded.name,
          description = excluded.description, visibility = excluded.visibility,
          document = excluded.document, facets = excluded.facets, summary = excluded.summary,
          updated_at = now() $$`,
    `CREATE FUNCTION ${s}.discovery_index_mcp_server() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' THEN
         DELETE FROM ${s}.discovery_entries WHERE entry_id = OLD.id;
       ELSE
         PERFORM ${s}.discovery_reindex_mcp_server(NEW.id);
       END IF;
       RETURN NULL;
     END $$`,
    // A server removed takes its tools with it (ON DELETE CASCADE): nothing left to index then.
    `CREATE FUNCTION ${s}.discovery_index_mcp_tools() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM ${s}.discovery_reindex_mcp_server(coalesce(NEW.server_id, OLD.server_id));
       RETURN NULL;
     END $$`,
  ];
}

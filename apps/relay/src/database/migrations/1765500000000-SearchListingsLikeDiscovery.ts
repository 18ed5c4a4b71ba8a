import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Issue 40 (marketplace.md MK29–MK31, discovery.md DS14): a listing is indexed as discovery
 * indexes an entry — the weighted document of `discovery_card_document` and the facets of
 * `discovery_card_facets` — by a trigger in the writer's transaction, so one search statement
 * (`searchStatement`) ranks and filters both. MK31: an installed MCP listing is an MCP server of
 * the installer with its installation and no URL of its own.
 */
export class SearchListingsLikeDiscovery1765500000000 implements MigrationInterface {
  name = 'SearchListingsLikeDiscovery1765500000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.mcp_servers ADD COLUMN installation_id uuid`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP CONSTRAINT mcp_servers_virtual_shape`);
    await runner.query(`
      ALTER TABLE ${s}.mcp_servers ADD CONSTRAINT mcp_servers_virtual_shape CHECK (
        (transport = 'VIRTUAL' AND members IS NOT NULL AND url IS NULL AND installation_id IS NULL)
        OR (transport <> 'VIRTUAL' AND members IS NULL
            AND (url IS NULL) = (installation_id IS NOT NULL)))`);
    await runner.query(
      `ALTER TABLE ${s}.marketplace_listings ADD COLUMN facets text[] NOT NULL DEFAULT '{}'`,
    );
    await runner.query(
      `CREATE INDEX marketplace_listings_facets ON ${s}.marketplace_listings USING gin (facets)`,
    );
    await runner.query(`
      CREATE FUNCTION ${s}.marketplace_index_listing() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        served ${s}.discovery_entries%ROWTYPE;
      BEGIN
        IF NEW.kind = 'AGENT' THEN
          -- DS3's weights over the card the listing publishes; the summary is its description.
          NEW.search := ${s}.discovery_card_document(NEW.name, NEW.summary, NEW.document);
          NEW.facets := ${s}.discovery_card_facets(NEW.document);
        ELSE
          -- MK30: server.json names no tools; the publisher's server, as discovery indexed it
          -- when the listing was written, lends its tool names, descriptions and facets.
          SELECT * INTO served FROM ${s}.discovery_entries
           WHERE entry_id = NEW.target_id AND tenant_id = NEW.tenant_id;
          NEW.search := setweight(to_tsvector('english', concat_ws(' ', NEW.name,
                            NEW.document ->> 'title')), 'A')
                     || setweight(to_tsvector('english', concat_ws(' ', NEW.summary,
                            NEW.document ->> 'description')), 'C')
                     -- its tools (B, C) only: the server's own name (A) is the publisher's (MK4).
                     || coalesce(ts_filter(served.document, '{b,c}'), ''::tsvector);
          NEW.facets := coalesce(served.facets, '{}');
        END IF;
        -- Categories are the publisher's own keywords (A, as tags are) and exact facets.
        NEW.search := NEW.search || setweight(to_tsvector('english',
                        array_to_string(NEW.categories, ' ')), 'A');
        NEW.facets := NEW.facets || coalesce((SELECT array_agg(DISTINCT 'category:' || lower(c))
                        FROM unnest(NEW.categories) c), '{}');
        RETURN NEW;
      END $$`);
    await runner.query(`
      CREATE TRIGGER marketplace_index BEFORE INSERT
        OR UPDATE OF name, summary, categories, document ON ${s}.marketplace_listings
        FOR EACH ROW EXECUTE FUNCTION ${s}.marketplace_index_listing()`);
    await runner.query(`UPDATE ${s}.marketplace_listings SET name = name`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`DROP TRIGGER marketplace_index ON ${s}.marketplace_listings`);
    await runner.query(`DROP FUNCTION ${s}.marketplace_index_listing()`);
    await runner.query(`DROP INDEX ${s}.marketplace_listings_facets`);
    await runner.query(`ALTER TABLE ${s}.marketplace_listings DROP COLUMN facets`);
    await runner.query(`DELETE FROM ${s}.mcp_servers WHERE installation_id IS NOT NULL`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP CONSTRAINT mcp_servers_virtual_shape`);
    await runner.query(`
      ALTER TABLE ${s}.mcp_servers ADD CONSTRAINT mcp_servers_virtual_shape CHECK (
        (transport = 'VIRTUAL' AND members IS NOT NULL AND url IS NULL)
        OR (transport <> 'VIRTUAL' AND members IS NULL AND url IS NOT NULL))`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN installation_id`);
  }
}

-- The recovery ledger of dataflow-runs (docs/durable-runs.md#the-ledger). One schema for H2 and
-- PostgreSQL: portable types only (VARCHAR, TEXT, BIGINT, INTEGER). Times are epoch
-- milliseconds on the library's Clock. No column ever holds a password, token or credential.

CREATE TABLE dataflow_run (
  run_id              VARCHAR(64)   NOT NULL PRIMARY KEY,
  idempotency_key     VARCHAR(256)  NOT NULL,
  mode                VARCHAR(32)   NOT NULL,
  status              VARCHAR(32)   NOT NULL,
  specification_name  VARCHAR(512)  NOT NULL,
  definition_hash     VARCHAR(64)   NOT NULL,
  request_hash        VARCHAR(64)   NOT NULL,
  request_json        TEXT          NOT NULL,
  access_digest       VARCHAR(64)   NOT NULL,
  invocation          VARCHAR(16)   NOT NULL,
  host                VARCHAR(255)  NOT NULL,
  process_id          BIGINT        NOT NULL,
  library_version     VARCHAR(64)   NOT NULL,
  target              VARCHAR(1024),
  current_attempt     INTEGER       NOT NULL,
  durable_mutation_at BIGINT,
  row_count           BIGINT,
  output_digest       VARCHAR(64),
  source_digest       VARCHAR(64),
  publication_digest  VARCHAR(64),
  bounded_result      TEXT,
  publication_ref     VARCHAR(2048),
  datasource_ref      VARCHAR(2048),
  materialization_ref VARCHAR(2048),
  checkpoint_hash     VARCHAR(64),
  external_output     VARCHAR(16)   NOT NULL,
  failure             VARCHAR(4000),
  resolution          VARCHAR(16),
  resolution_evidence TEXT,
  created_at          BIGINT        NOT NULL,
  updated_at          BIGINT        NOT NULL,
  CONSTRAINT dataflow_run_key UNIQUE (idempotency_key)
);

CREATE TABLE dataflow_run_attempt (
  run_id           VARCHAR(64)  NOT NULL,
  attempt_no       INTEGER      NOT NULL,
  status           VARCHAR(16)  NOT NULL,
  invocation       VARCHAR(16)  NOT NULL,
  host             VARCHAR(255) NOT NULL,
  process_id       BIGINT       NOT NULL,
  started_at       BIGINT       NOT NULL,
  lease_expires_at BIGINT       NOT NULL,
  ended_at         BIGINT,
  note             VARCHAR(4000),
  PRIMARY KEY (run_id, attempt_no),
  CONSTRAINT dataflow_run_attempt_run FOREIGN KEY (run_id) REFERENCES dataflow_run (run_id)
);

-- The verified recovery checkpoint: the evidence chain's links and its head, one per run,
-- written in the transaction of the success projection.
CREATE TABLE dataflow_run_checkpoint (
  run_id          VARCHAR(64) NOT NULL PRIMARY KEY,
  attempt_no      INTEGER     NOT NULL,
  definition_hash VARCHAR(64) NOT NULL,
  request_hash    VARCHAR(64) NOT NULL,
  source_digest   VARCHAR(64) NOT NULL,
  output_digest   VARCHAR(64) NOT NULL,
  row_count       BIGINT      NOT NULL,
  chain_hash      VARCHAR(64) NOT NULL,
  committed_at    BIGINT      NOT NULL,
  CONSTRAINT dataflow_run_checkpoint_run FOREIGN KEY (run_id) REFERENCES dataflow_run (run_id)
);

-- What happened to a run, in order: what runs show prints under the attempts.
CREATE TABLE dataflow_run_event (
  run_id     VARCHAR(64)   NOT NULL,
  seq        INTEGER       NOT NULL,
  attempt_no INTEGER       NOT NULL,
  at         BIGINT        NOT NULL,
  kind       VARCHAR(32)   NOT NULL,
  detail     VARCHAR(4000),
  PRIMARY KEY (run_id, seq),
  CONSTRAINT dataflow_run_event_run FOREIGN KEY (run_id) REFERENCES dataflow_run (run_id)
);

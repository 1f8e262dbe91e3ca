-- Pending announcements are leased, not deleted, when start-up repair claims them: the row stays until
-- it is posted (then the front end deletes it), so a process killed between its claim and its post
-- loses nothing. claimed_at/claimed_by say when and by which process; a claim older than the lease
-- (OUTBOX_LEASE_SECONDS) is taken again.
ALTER TABLE outbox ADD COLUMN claimed_at REAL;
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;

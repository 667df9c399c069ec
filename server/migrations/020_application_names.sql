-- Applications are created and renamed from the back office (POST /private/v1/applications,
-- PATCH /private/v1/applications/{id}); like tags, their names are unique ignoring case.
-- Names a database already holds twice (older data) get a numbered suffix first, the oldest
-- keeping its own, so the index can be built.
UPDATE applications a SET name = a.name || ' (' || d.n || ')'
FROM (
  SELECT id, row_number() OVER (PARTITION BY lower(name) ORDER BY created_at, id) AS n
  FROM applications
) d
WHERE d.id = a.id AND d.n > 1;
CREATE UNIQUE INDEX applications_name_key ON applications (lower(name));

sqlite3 bundle.sqlite "CREATE TABLE food(x); INSERT INTO food VALUES (1); PRAGMA user_version = 1;"
cp bundle.sqlite full.sqlite
sqlite3 full.sqlite "CREATE TABLE more(x); INSERT INTO more SELECT randomblob(500) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n); PRAGMA user_version = 2;"
head -c 20000 full.sqlite > download.sqlite

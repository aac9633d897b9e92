sqlite3 big.sqlite "CREATE TABLE food(x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<5000) INSERT INTO food SELECT hex(randomblob(50)) FROM n;"
head -c 6000 big.sqlite > bundle.sqlite
rm big.sqlite

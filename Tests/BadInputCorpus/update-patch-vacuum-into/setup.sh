sqlite3 bundle.sqlite "CREATE TABLE food(x); PRAGMA user_version = 1;"
printf 'BEGIN TRANSACTION;\nINSERT INTO food VALUES (2);\nVACUUM INTO '"'"'stolen.sqlite'"'"';\nPRAGMA user_version=2;\nCOMMIT;\n' > patch.sql

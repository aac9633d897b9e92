export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE="2020-01-01T00:00:00Z" GIT_COMMITTER_DATE="2020-01-01T00:00:00Z"
git init -q origin
for i in 1 2 3; do echo $i > origin/f; git -C origin add f; git -C origin commit -qm c$i; done
git clone -q --depth 1 "file://$PWD/origin" repo

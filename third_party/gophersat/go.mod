module github.com/crillab/gophersat

go 1.19

module elect

go 1.26.8
